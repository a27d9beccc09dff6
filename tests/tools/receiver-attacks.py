#!/usr/bin/env python3
# The webhook receiver under hostile clients, without any key: it must stay
# up and answer /healthz within 1 s after each attack, with its memory
# bounded. Each case is one found in a review of 155add0:
#   1. descriptor exhaustion: ulimit -n 64, 80 connections held, then all
#      closed (libsoup's listener used to stop accepting for good);
#   2. slow headers: connections dribbling a header byte at a time are
#      closed after --header-timeout;
#   3. slow bodies: 60 connections each holding a 4 MiB body minus one byte
#      (memory used to grow by 240 MB, none was closed);
#   4. 413 for an oversized body, with and without Content-Length;
#   5. a burst of 1000 connects (a backlog of 10 used to reset most);
#   6. 100 requests, each on a kept-alive connection the client then
#      closes (libsoup 3.2 kept each in CLOSE-WAIT: a descriptor each).
# Only 127.0.0.1; every loop bounded in count and time.
import os, resource, socket, subprocess, sys, tempfile, time

BUILD = os.environ["GST_SESSION_BUILD_ROOT"]
CLI = os.path.join(BUILD, "tools", "cli", "gst-session")
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what, flush=True)
    if not ok:
        failures.append(what)


def start(tmp, nofile=None, extra=()):
    def limit():
        if nofile:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
    args = [CLI, "webhook", "listen", "--port", "0",
            "--jwks-url", "http://127.0.0.1:1/jwks.json",
            "--db", os.path.join(tmp, "d.db"),
            "--jsonl", os.path.join(tmp, "d.jsonl"),
            "--header-timeout", "2", "--body-timeout", "2", *extra]
    log = open(os.path.join(tmp, "listen.log"), "wb")
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=log,
                         preexec_fn=limit, text=True)
    url = p.stdout.readline().strip()
    host, port = url.rsplit("/", 1)[-1].rsplit(":", 1)
    return p, int(port)


def healthz(port, timeout=1.0):
    """(answered with 200 within timeout, seconds taken)"""
    t0 = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.settimeout(timeout)
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            data = b""
            while b"\r\n" not in data:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
        return data.startswith(b"HTTP/1.1 200"), time.monotonic() - t0
    except OSError:
        return False, time.monotonic() - t0


def healthz_soon(port, within=10.0):
    """/healthz answered in under 1 s, by a deadline (bounded polling)"""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        ok, took = healthz(port)
        if ok and took < 1.0:
            return True, took
        time.sleep(0.1)
    return False, None


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def closed_by_peer(s, within):
    s.settimeout(within)
    try:
        while True:
            if not s.recv(65536):
                return True
    except ConnectionResetError:
        return True
    except OSError:
        return False


def stop(p):
    p.terminate()
    try:
        p.wait(10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    return p.returncode


with tempfile.TemporaryDirectory() as tmp:
    # 1. descriptor exhaustion
    p, port = start(tmp, nofile=64)
    held = []
    for i in range(80):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2)
            s.sendall(b"POST /hook HTTP/1.1\r\nHost: x\r\n")
            held.append(s)
        except OSError:
            pass
    for s in held:
        s.close()
    ok, took = healthz_soon(port)
    check(ok, f"fd exhaustion (ulimit -n 64, 80 held connections): /healthz "
          f"answers afterwards ({took and round(took * 1000)} ms)")
    check(p.poll() is None, "the receiver is still running")
    stop(p)

    # 2. slow headers, 3. slow bodies: closed, memory bounded
    p, port = start(tmp)
    rss0 = rss_kib(p.pid)
    slow = []
    for i in range(30):
        s = socket.create_connection(("127.0.0.1", port), timeout=2)
        s.sendall(b"POST /hook HTTP/1.1\r\n")
        slow.append(s)
    t0 = time.monotonic()
    for i in range(6):                          # a byte every 0.5 s
        for s in slow:
            try:
                s.sendall(b"X")
            except OSError:
                pass
        time.sleep(0.5)
    closed = sum(closed_by_peer(s, 1.0) for s in slow)
    check(closed == len(slow), f"slow headers: {closed} of {len(slow)} "
          f"connections closed by the receiver within "
          f"{time.monotonic() - t0:.1f} s (header timeout 2 s)")
    for s in slow:
        s.close()

    bodies = []
    size = 4 * 1024 * 1024
    for i in range(60):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2)
            s.sendall(b"POST /hook HTTP/1.1\r\nHost: x\r\nContent-Type: "
                      b"application/json\r\nContent-Length: %d\r\n\r\n" % size)
            s.settimeout(5)
            s.sendall(b"x" * (size - 1))
            bodies.append(s)
        except OSError:
            pass                                 # refused or closed: fine
    peak = rss_kib(p.pid)
    closed = sum(closed_by_peer(s, 5.0) for s in bodies)
    check(closed == len(bodies), f"slow bodies: {closed} of {len(bodies)} "
          f"connections holding 4 MiB - 1 closed (body timeout 2 s)")
    grew = (peak - rss0) / 1024
    check(grew < 100, f"memory with 60 bodies of 4 MiB - 1 held: "
          f"{rss0 // 1024} MB -> {peak // 1024} MB (+{grew:.0f} MB; "
          f"bounded by --max-buffered, 64 MiB)")
    for s in bodies:
        s.close()
    ok, took = healthz_soon(port)
    check(ok, "after the slow clients: /healthz answers within 1 s")

    # 4. 413 with and without Content-Length
    def post(head, body):
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.settimeout(10)
            try:
                s.sendall(head + body)
            except OSError:
                pass
            data = b""
            try:
                while b"\r\n" not in data:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    data += chunk
            except OSError:
                pass
            return data.split(b"\r\n", 1)[0]
    big = 5 * 1024 * 1024
    line = post(b"POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n"
                % big, b"")
    check(b" 413 " in line, f"Content-Length over the limit: {line!r}")
    chunked = b"".join(b"%x\r\n%s\r\n" % (65536, b"y" * 65536)
                       for _ in range(big // 65536)) + b"0\r\n\r\n"
    line = post(b"POST /hook HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: "
                b"chunked\r\n\r\n", chunked)
    check(b" 413 " in line, f"a chunked body over the limit: {line!r}")
    # 5. a burst of 1000 connects
    resets = 0
    burst = []
    for i in range(1000):
        s = socket.socket()
        s.setblocking(False)
        try:
            s.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        except OSError:
            resets += 1
        burst.append(s)
    time.sleep(0.2)
    for s in burst:
        try:
            s.setblocking(True)
            s.settimeout(0.01)
            s.getpeername()
        except OSError:
            resets += 1
        s.close()
    ok, took = healthz_soon(port)
    print(f"burst of 1000 connects: {resets} not connected", flush=True)
    check(ok, f"after a burst of 1000 connects: /healthz within 1 s")
    check(resets < 100, f"a burst of 1000 connects: {resets} refused or "
          f"reset (backlog 1024)")

    # 6. kept-alive connections closed by the client while idle
    def fds(pid):
        return len(os.listdir(f"/proc/{pid}/fd"))
    before = fds(p.pid)
    for i in range(100):
        with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
            s.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n"
                      b"\r\n{}")
            s.recv(4096)
    deadline = time.monotonic() + 5
    while fds(p.pid) > before + 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    after = fds(p.pid)
    print(f"descriptors: {before} before 100 kept-alive requests, {after} "
          f"after", flush=True)
    check(after <= before + 2, f"100 kept-alive connections closed by the "
          f"client: {after - before} descriptors kept")

    rc = stop(p)
    check(rc == 0, f"a clean stop (exit status {rc})")

print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
