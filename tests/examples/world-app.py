#!/usr/bin/env python3
"""gst-session example: embedding worldsrc in a Python (PyGObject) app.

    world-app.py URL

Changes the prompt and the held commands while playing, pings, listens to
`control-message`, and reads the bus. Exits 0 once the prompt change was
applied and a pong came back, 1 on an error or after 30 s.
"""
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402


def main():
    Gst.init(None)
    if len(sys.argv) < 2:
        print("usage: world-app.py http://HOST:PORT", file=sys.stderr)
        return 2
    pipeline = Gst.parse_launch(
        "worldsrc name=src preset=forest-stream "
        'prompt="a misty pine forest" ! videoconvert ! fakesink')
    src = pipeline.get_by_name("src")
    src.set_property("url", sys.argv[1] + "/world/start-session")
    loop = GLib.MainLoop()
    state = {"applied": False, "pong": False, "steered": False, "rc": 1}

    def on_control_message(element, kind, fields):
        # emitted from the element's thread for every service message
        print("control-message", kind, fields.to_string())

    def steer():
        src.set_property("prompt", "the same forest, at night")
        src.set_property("commands", "forward+look_left")
        src.emit("activate", "look_up")
        refused = not src.emit("press", "backward")
        print("press backward while forward is held:",
              "refused" if refused else "accepted")
        src.emit("ping")
        return False

    def on_message(bus, msg):
        if msg.type == Gst.MessageType.ELEMENT:
            s = msg.get_structure()
            name = s.get_name()
            if name == "world/configured" and not state["steered"]:
                state["steered"] = True
                GLib.timeout_add(500, steer)
            elif name == "world/prompt_applied":
                state["applied"] = True
            elif name == "world/pong":
                ok, rtt = s.get_double("rtt_ms")
                print("round trip: %.2f ms" % rtt)
                state["pong"] = True
            if state["applied"] and state["pong"]:
                state["rc"] = 0
                loop.quit()
        elif msg.type == Gst.MessageType.WARNING:
            print("warning:", msg.parse_warning()[0].message)
        elif msg.type == Gst.MessageType.ERROR:
            print("error:", msg.parse_error()[0].message, file=sys.stderr)
            loop.quit()
        elif msg.type == Gst.MessageType.EOS:
            loop.quit()

    src.connect("control-message", on_control_message)
    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect("message", on_message)
    GLib.timeout_add_seconds(30, lambda: (print("timed out"), loop.quit()))
    pipeline.set_state(Gst.State.PLAYING)
    loop.run()
    pipeline.set_state(Gst.State.NULL)
    bus.remove_signal_watch()
    print("done" if state["rc"] == 0 else "failed")
    return state["rc"]


if __name__ == "__main__":
    sys.exit(main())
