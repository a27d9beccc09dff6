/* gst-session example: embedding worldsrc in a C application.
 *
 *   world-app URL
 *
 * Builds `worldsrc ! videoconvert ! fakesink`, changes the prompt and the
 * held commands while playing, pings, listens to `control-message`, and
 * reads the bus. Exits 0 once the prompt change was applied and a pong
 * came back, 1 on an error or after 30 s.
 */

#include <gst/gst.h>

typedef struct
{
  GMainLoop *loop;
  GstElement *src;
  gboolean prompt_applied;
  gboolean pong;
  gboolean steered;
  gint rc;
} App;

/* emitted from the element's thread for every service message */
static void
on_control_message (GstElement * src, const gchar * type,
    const GstStructure * fields, App * app)
{
  gchar *text = gst_structure_to_string (fields);

  g_print ("control-message %s: %s\n", type, text);
  g_free (text);
}

static gboolean
steer (gpointer data)
{
  App *app = data;
  gboolean ok;

  /* a new prompt while playing is sent as a `prompt` message */
  g_object_set (app->src, "prompt", "the same forest, at night", NULL);
  /* hold forward and look_left, then a one-shot look_up */
  g_object_set (app->src, "commands", "forward+look_left", NULL);
  g_signal_emit_by_name (app->src, "activate", "look_up", &ok);
  /* a conflicting command is refused (a warning), nothing is sent */
  g_signal_emit_by_name (app->src, "press", "backward", &ok);
  g_print ("press backward while forward is held: %s\n",
      ok ? "accepted" : "refused");
  g_signal_emit_by_name (app->src, "ping", &ok);
  return G_SOURCE_REMOVE;
}

static gboolean
on_bus (GstBus * bus, GstMessage * msg, gpointer data)
{
  App *app = data;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ELEMENT:{
      const GstStructure *s = gst_message_get_structure (msg);

      if (gst_structure_has_name (s, "world/configured") && !app->steered) {
        app->steered = TRUE;
        g_timeout_add (500, steer, app);
      } else if (gst_structure_has_name (s, "world/prompt_applied")) {
        app->prompt_applied = TRUE;
      } else if (gst_structure_has_name (s, "world/pong")) {
        gdouble rtt = -1;

        gst_structure_get_double (s, "rtt_ms", &rtt);
        g_print ("round trip: %.2f ms\n", rtt);
        app->pong = TRUE;
      }
      if (app->prompt_applied && app->pong) {
        app->rc = 0;
        g_main_loop_quit (app->loop);
      }
      break;
    }
    case GST_MESSAGE_WARNING:{
      GError *err = NULL;

      gst_message_parse_warning (msg, &err, NULL);
      g_print ("warning: %s\n", err->message);
      g_error_free (err);
      break;
    }
    case GST_MESSAGE_ERROR:{
      GError *err = NULL;

      gst_message_parse_error (msg, &err, NULL);
      g_printerr ("error: %s\n", err->message);
      g_error_free (err);
      g_main_loop_quit (app->loop);
      break;
    }
    case GST_MESSAGE_EOS:
      g_main_loop_quit (app->loop);
      break;
    default:
      break;
  }
  return G_SOURCE_CONTINUE;
}

static gboolean
give_up (gpointer data)
{
  App *app = data;

  g_printerr ("timed out\n");
  g_main_loop_quit (app->loop);
  return G_SOURCE_REMOVE;
}

int
main (int argc, char **argv)
{
  App app = { NULL, NULL, FALSE, FALSE, FALSE, 1 };
  GstElement *pipeline, *convert, *sink;
  GstBus *bus;
  gchar *url;

  gst_init (&argc, &argv);
  if (argc < 2) {
    g_printerr ("usage: %s http://HOST:PORT\n", argv[0]);
    return 2;
  }
  url = g_strdup_printf ("%s/world/start-session", argv[1]);

  pipeline = gst_pipeline_new ("world");
  app.src = gst_element_factory_make ("worldsrc", NULL);
  convert = gst_element_factory_make ("videoconvert", NULL);
  sink = gst_element_factory_make ("fakesink", NULL);
  if (!app.src || !convert || !sink) {
    g_printerr ("missing elements (is GST_PLUGIN_PATH set?)\n");
    return 1;
  }
  g_object_set (app.src, "url", url, "preset", "forest-stream",
      "prompt", "a misty pine forest", NULL);
  g_free (url);
  gst_bin_add_many (GST_BIN (pipeline), app.src, convert, sink, NULL);
  gst_element_link_many (app.src, convert, sink, NULL);
  g_signal_connect (app.src, "control-message",
      G_CALLBACK (on_control_message), &app);

  app.loop = g_main_loop_new (NULL, FALSE);
  bus = gst_element_get_bus (pipeline);
  gst_bus_add_watch (bus, on_bus, &app);
  gst_object_unref (bus);
  g_timeout_add_seconds (30, give_up, &app);

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  g_main_loop_run (app.loop);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  g_main_loop_unref (app.loop);
  g_print ("%s\n", app.rc == 0 ? "done" : "failed");
  return app.rc;
}
