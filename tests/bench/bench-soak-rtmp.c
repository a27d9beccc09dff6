/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The soak's receiving end (bench-soak.c): nginx-rtmp on 127.0.0.1,
 * started and stopped here, the recording it makes read back with
 * ffprobe (tracks, steps, gaps), kept (--keep) and removed.
 */

#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <grp.h>
#include <unistd.h>

#include "bench-soak.h"

#define NGINX_MODULE "/usr/lib/nginx/modules/ngx_rtmp_module.so"

/* ---- nginx-rtmp on 127.0.0.1 ---- */

static guint16
free_port (void)
{
  struct sockaddr_in a = { 0 };
  socklen_t len = sizeof (a);
  gint fd = socket (AF_INET, SOCK_STREAM, 0);
  guint16 port = 0;

  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (fd >= 0 && bind (fd, (struct sockaddr *) &a, sizeof (a)) == 0 &&
      getsockname (fd, (struct sockaddr *) &a, &len) == 0)
    port = ntohs (a.sin_port);
  if (fd >= 0)
    close (fd);
  return port;
}

static gboolean
port_open (guint16 port)
{
  struct sockaddr_in a = { 0 };
  gint fd = socket (AF_INET, SOCK_STREAM, 0);
  gboolean ok;

  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  a.sin_port = htons (port);
  ok = fd >= 0 && connect (fd, (struct sockaddr *) &a, sizeof (a)) == 0;
  if (fd >= 0)
    close (fd);
  return ok;
}

static void
waited (GObject * proc, GAsyncResult * res, gpointer data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (proc), res, NULL);
  *(gboolean *) data = TRUE;
}

/* Waits up to @timeout_ms for @proc to end (the default main context
 * runs meanwhile); kills it when it does not. */
void
subprocess_end (GSubprocess * proc, guint timeout_ms)
{
  gboolean done = FALSE;
  gdouble deadline = bench_now_ms () + timeout_ms;

  g_subprocess_wait_async (proc, NULL, waited, &done);
  while (!done && bench_now_ms () < deadline)
    bench_sleep_ms (20);
  if (!done) {
    g_subprocess_force_exit (proc);
    deadline = bench_now_ms () + 5000;
    while (!done && bench_now_ms () < deadline)
      bench_sleep_ms (20);
  }
}

gboolean
nginx_start (Soak * s)
{
  guint tries, i;

  if (!g_file_test (NGINX_MODULE, G_FILE_TEST_EXISTS) ||
      !g_find_program_in_path ("nginx")) {
    g_printerr ("no nginx RTMP module (Debian: nginx libnginx-mod-rtmp)\n");
    return FALSE;
  }
  s->nginx_dir = g_dir_make_tmp ("soak-nginx-XXXXXX", NULL);
  if (s->nginx_dir == NULL)
    return FALSE;
  for (tries = 0; tries < 5; tries++) {
    guint16 port = free_port ();
    gchar *conf, *path, *log, *user = NULL;
    GError *err = NULL;

    /* as root nginx would switch to an unprivileged user: stay who we are */
    if (getuid () == 0)
      user = g_strdup_printf ("user %s %s;", g_get_user_name (),
          getgrgid (getgid ())? getgrgid (getgid ())->gr_name : "root");
    conf = g_strdup_printf ("load_module %s;\n%s\ndaemon off;\n"
        "master_process off;\nworker_processes 1;\npid %s/nginx.pid;\n"
        "error_log %s/error.log info;\nevents { worker_connections 64; }\n"
        "rtmp {\n  server {\n    listen 127.0.0.1:%u;\n"
        "    application live {\n      live on;\n      record all;\n"
        "      record_path %s;\n      record_unique off;\n"
        "      allow publish 127.0.0.1;\n      deny publish all;\n"
        "      allow play 127.0.0.1;\n      deny play all;\n    }\n  }\n}\n",
        NGINX_MODULE, user ? user : "", s->nginx_dir, s->nginx_dir, port,
        s->nginx_dir);
    g_free (user);
    path = g_build_filename (s->nginx_dir, "nginx.conf", NULL);
    log = g_build_filename (s->nginx_dir, "error.log", NULL);
    g_file_set_contents (path, conf, -1, NULL);
    g_file_set_contents (log, "", -1, NULL);
    g_free (conf);
    s->nginx = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
        G_SUBPROCESS_FLAGS_STDERR_SILENCE, &err, "nginx", "-p", s->nginx_dir,
        "-c", path, "-e", log, NULL);
    g_free (path);
    g_free (log);
    if (s->nginx == NULL) {
      g_printerr ("nginx: %s\n", err->message);
      g_error_free (err);
      return FALSE;
    }
    s->nginx_pid = atoi (g_subprocess_get_identifier (s->nginx));
    for (i = 0; i < 50; i++) {
      if (port_open (port)) {
        s->rtmp_url = g_strdup_printf ("rtmp://127.0.0.1:%u/live/soak", port);
        g_printerr ("nginx-rtmp on 127.0.0.1:%u (pid %d)\n", port,
            s->nginx_pid);
        return TRUE;
      }
      if (g_subprocess_get_identifier (s->nginx) == NULL)
        break;
      g_usleep (100000);
    }
    g_printerr ("nginx did not listen on port %u (attempt %u)\n", port,
        tries + 1);
    g_subprocess_force_exit (s->nginx);
    subprocess_end (s->nginx, 2000);
    g_clear_object (&s->nginx);
  }
  return FALSE;
}

/* true when nginx's log has @text */
gboolean
nginx_log_has (Soak * s, const gchar * text)
{
  gchar *path = g_build_filename (s->nginx_dir, "error.log", NULL);
  gchar *log = NULL;
  gboolean found;

  found = g_file_get_contents (path, &log, NULL, NULL) &&
      strstr (log, text) != NULL;
  g_free (log);
  g_free (path);
  return found;
}

void
nginx_stop (Soak * s)
{
  if (s->nginx == NULL)
    return;
  g_subprocess_send_signal (s->nginx, SIGTERM);
  subprocess_end (s->nginx, 5000);
  g_clear_object (&s->nginx);
}

void
remove_dir (const gchar * dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;

  while (d && (name = g_dir_read_name (d))) {
    gchar *p = g_build_filename (dir, name, NULL);

    g_remove (p);
    g_free (p);
  }
  if (d)
    g_dir_close (d);
  g_rmdir (dir);
}

/* ---- the recording ---- */

/* the sum of the first @n values */
static gdouble
bench_values_sum_to (GArray * v, guint n)
{
  gdouble sum = 0;
  guint i;

  for (i = 0; i < n && i < v->len; i++)
    sum += g_array_index (v, gdouble, i);
  return sum;
}

/* reads the recorded FLV with ffprobe: codecs, then every packet */
gboolean
read_recording (const gchar * flv, Track * video, Track * audio,
    gchar ** codecs)
{
  gchar *out = NULL, **lines, **l;
  const gchar *streams[] = { "timeout", "60", "ffprobe", "-v", "error",
    "-show_entries", "stream=index,codec_type,codec_name", "-of", "csv=p=0",
    flv, NULL
  };
  const gchar *packets[] = { "timeout", "300", "ffprobe", "-v", "error",
    "-show_entries", "packet=stream_index,dts_time,duration_time", "-of",
    "csv=p=0", flv, NULL
  };
  gint status;
  guint i;

  if (!g_spawn_sync (NULL, (gchar **) streams, NULL, G_SPAWN_SEARCH_PATH |
          G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, NULL))
    return FALSE;
  lines = g_strsplit (out, "\n", -1);
  g_free (out);
  *codecs = NULL;
  for (l = lines; *l; l++) {
    gchar **f = g_strsplit (g_strstrip (*l), ",", -1);

    if (g_strv_length (f) == 3) {
      Track *t = g_str_equal (f[2], "video") ? video :
          g_str_equal (f[2], "audio") ? audio : NULL;
      gchar *c = g_strdup_printf ("%s%s%s", *codecs ? *codecs : "",
          *codecs ? "," : "", f[1]);

      if (t)
        t->index = atoi (f[0]);
      g_free (*codecs);
      *codecs = c;
    }
    g_strfreev (f);
  }
  g_strfreev (lines);
  if (!g_spawn_sync (NULL, (gchar **) packets, NULL, G_SPAWN_SEARCH_PATH |
          G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, NULL))
    return FALSE;
  lines = g_strsplit (out, "\n", -1);
  g_free (out);
  for (l = lines; *l; l++) {
    gchar **f = g_strsplit (*l, ",", -1);

    if (g_strv_length (f) >= 2) {
      gint idx = atoi (f[0]);
      Track *t = idx == video->index ? video : idx == audio->index ? audio :
          NULL;
      gchar *end = NULL;
      gdouble dts = g_ascii_strtod (f[1], &end);
      gdouble dur = f[2] ? g_ascii_strtod (f[2], NULL) : 0;

      if (t && end != f[1]) {
        if (t->packets == 0)
          t->first = dts;
        else
          bench_values_add (t->steps, (dts - t->last_dts) * 1000);
        t->last_dts = dts;
        t->end = MAX (t->end, dts + dur);
        t->packets++;
      }
    }
    g_strfreev (f);
  }
  g_strfreev (lines);
  /* a gap: a step longer than the usual one plus one more (FLV times are
   * whole milliseconds); a backward step: below zero */
  for (i = 0; i < 2; i++) {
    Track *t = i ? audio : video;
    guint j;

    t->nominal_ms = bench_median (t->steps);
    t->max_step_ms = bench_max (t->steps);
    for (j = 0; j < t->steps->len; j++) {
      gdouble d = g_array_index (t->steps, gdouble, j);

      if (d > 2 * t->nominal_ms + 1) {
        gdouble at = t->first + bench_values_sum_to (t->steps, j) / 1000;

        t->gaps++;
        if (t->gap_at->len < 8) {
          g_array_append_val (t->gap_at, at);
          g_array_append_val (t->gap_ms, d);
        }
      }
      if (d < 0)
        t->backwards++;
    }
  }
  return status == 0;
}

/* copies the recording and nginx's log into @dir */
void
keep_files (const gchar * from, const gchar * dir)
{
  const gchar *names[] = { "soak.flv", "error.log" };
  guint i;

  g_mkdir_with_parents (dir, 0755);
  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *a = g_build_filename (from, names[i], NULL);
    gchar *b = g_build_filename (dir, names[i], NULL);
    GFile *fa = g_file_new_for_path (a), *fb = g_file_new_for_path (b);

    if (!g_file_copy (fa, fb, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, NULL))
      g_printerr ("could not copy %s to %s\n", a, dir);
    g_object_unref (fa);
    g_object_unref (fb);
    g_free (a);
    g_free (b);
  }
}
