/* gst-session-service: apps and runners management (spec 001)
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Fake but consistent data: the apps are the queue's apps, each with its
 * runners; the queue picks a running runner for every request, which
 * counts it and logs it. Every request is counted per client (the API key
 * it carries, else the peer address) with GstSessionRateLimiter, in
 * windows of --rate-window seconds (60 by default, the limits of spec
 * 001's table per window); a refused request answers 429 with
 * x-ratelimit-reset and changes nothing (a refused stop or kill leaves the
 * runner running). Everything runs on the main thread.
 */

#include <string.h>
#include <math.h>
#include <json-glib/json-glib.h>

#include <gst/session/platform/platform.h>

#include "management.h"
#include "apps.h"

#define MAX_LOG_LINES 200
#define MAX_EXEC_BODY (64 * 1024)

typedef enum
{
  RUNNER_RUNNING,
  RUNNER_STOPPED,
  RUNNER_KILLED,
} RunnerState;

static const gchar *runner_state_names[] = { "running", "stopped", "killed" };

typedef struct
{
  gchar *id;
  gchar *app_id;
  RunnerState state;
  gint64 started_at;            /* real time, µs */
  gint64 ended_at;
  guint requests;
  GQueue lines;                 /* gchar *, oldest first */
} Runner;

struct _SvcManagement
{
  const SvcContext *ctx;
  const SvcConfig *config;
  GstSessionRateLimiter *limiter;
  GPtrArray *runners;           /* Runner, in app order */
  GHashTable *next_pick;        /* app id -> round-robin position */
};

/* ---------------------------------------------------------------- *
 * data
 * ---------------------------------------------------------------- */

static gchar *
iso_time (gint64 real_us)
{
  GDateTime *t = g_date_time_new_from_unix_utc (real_us / G_USEC_PER_SEC);
  gchar *text = g_date_time_format (t, "%Y-%m-%dT%H:%M:%SZ");

  g_date_time_unref (t);
  return text;
}

static void
runner_log (Runner * r, const gchar * line)
{
  gchar *when = iso_time (g_get_real_time ());

  g_queue_push_tail (&r->lines, g_strdup_printf ("%s %s", when, line));
  while (r->lines.length > MAX_LOG_LINES)
    g_free (g_queue_pop_head (&r->lines));
  g_free (when);
}

static void
runner_start (Runner * r)
{
  gchar *line = g_strdup_printf ("runner %s started; app %s loaded", r->id,
      r->app_id);

  r->state = RUNNER_RUNNING;
  r->started_at = g_get_real_time ();
  r->ended_at = 0;
  runner_log (r, line);
  g_free (line);
}

static void
runner_free (Runner * r)
{
  g_free (r->id);
  g_free (r->app_id);
  g_queue_clear_full (&r->lines, g_free);
  g_free (r);
}

static Runner *
find_runner (SvcManagement * m, const gchar * id)
{
  guint i;

  for (i = 0; i < m->runners->len; i++) {
    Runner *r = g_ptr_array_index (m->runners, i);

    if (g_str_equal (r->id, id))
      return r;
  }
  return NULL;
}

static gboolean
app_exists (const gchar * app_id)
{
  const SvcQueueApp *apps;
  guint n, i;

  apps = svc_queue_apps (&n);
  for (i = 0; i < n; i++) {
    gchar *id = g_strconcat (SVC_APP_OWNER "/", apps[i].name, NULL);
    gboolean same = g_str_equal (id, app_id);

    g_free (id);
    if (same)
      return TRUE;
  }
  return FALSE;
}

const gchar *
svc_management_pick_runner (SvcManagement * m, const gchar * app_id)
{
  guint start = GPOINTER_TO_UINT (g_hash_table_lookup (m->next_pick, app_id));
  guint i, n = m->runners->len;

  for (i = 0; i < n; i++) {
    Runner *r = g_ptr_array_index (m->runners, (start + i) % n);

    if (r->state == RUNNER_RUNNING && g_str_equal (r->app_id, app_id)) {
      g_hash_table_replace (m->next_pick, g_strdup (app_id),
          GUINT_TO_POINTER ((start + i + 1) % n));
      return r->id;
    }
  }
  return NULL;
}

void
svc_management_runner_log (SvcManagement * m, const gchar * runner_id,
    gboolean request, const gchar * line)
{
  Runner *r = find_runner (m, runner_id);

  if (!r)
    return;
  if (request)
    r->requests++;
  runner_log (r, line);
}

void
svc_management_reset_runners (SvcManagement * m)
{
  guint i;

  for (i = 0; i < m->runners->len; i++) {
    Runner *r = g_ptr_array_index (m->runners, i);

    if (r->state != RUNNER_RUNNING)
      runner_start (r);
  }
}

/* ---------------------------------------------------------------- *
 * rate limits: the limiter's minute is --rate-window seconds
 * ---------------------------------------------------------------- */

static gint64
scaled_clock (gpointer data)
{
  const SvcConfig *config = data;

  return (gint64) (g_get_monotonic_time () * (60.0 / config->rate_window));
}

void
svc_management_reset_limits (SvcManagement * m)
{
  if (m->limiter)
    gst_session_rate_limiter_unref (m->limiter);
  m->limiter = gst_session_rate_limiter_new ();
  gst_session_rate_limiter_set_clock (m->limiter, scaled_clock,
      (gpointer) m->config, NULL);
}

/* The client: a hash of its API key when the service checks keys (the key
 * was verified), else its address: a key nobody checks costs nothing to
 * change, and a new one per request would escape every limit. */
static gchar *
client_key (SvcManagement * m, SoupServerMessage * msg)
{
  const gchar *auth = soup_message_headers_get_one
      (soup_server_message_get_request_headers (msg), "Authorization");
  GSocketAddress *addr;

  if (m->config->api_keys && auth && g_str_has_prefix (auth, "Key ") && auth[4]) {
    gchar *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, auth + 4,
        -1);
    gchar *key = g_strconcat ("key:", hash, NULL);

    g_free (hash);
    return key;
  }
  addr = soup_server_message_get_remote_address (msg);
  if (addr && G_IS_INET_SOCKET_ADDRESS (addr)) {
    gchar *ip = g_inet_address_to_string (g_inet_socket_address_get_address
        (G_INET_SOCKET_ADDRESS (addr)));
    gchar *key = g_strconcat ("addr:", ip, NULL);

    g_free (ip);
    return key;
  }
  return g_strdup ("addr:unknown");
}

/* TRUE when the request may go on; else the 429 answer is set */
static gboolean
rate_limit (SvcManagement * m, SoupServerMessage * msg, const gchar * path)
{
  const gchar *method = soup_server_message_get_method (msg);
  gchar *key = client_key (m, msg);
  gint64 now = gst_session_rate_limiter_get_time (m->limiter);
  const GstSessionRateCost *costs = NULL;
  guint n_costs = 0, reset = 0, i, real_reset;
  GString *detail;
  gchar *value;
  gboolean stop_or_kill;

  if (gst_session_rate_limiter_try_request (m->limiter, key, method, path,
          now, &reset)) {
    g_free (key);
    return TRUE;
  }

  /* the limiter counts in its minutes: real seconds, rounded up */
  real_reset = MAX (1, (guint) ceil (reset * m->config->rate_window / 60.0));
  gst_session_management_request_costs (method, path, &costs, &n_costs);
  detail = g_string_new ("rate limit reached:");
  for (i = 0; i < n_costs; i++) {
    GstSessionManagementOp op = costs[i].limit;

    if (gst_session_rate_limiter_remaining (m->limiter, key, op, now,
            NULL) >= costs[i].count)
      continue;
    if (m->config->rate_window == 60.0)
      g_string_append_printf (detail, " %s allows %u calls per minute;",
          gst_session_management_op_name (op),
          gst_session_management_op_per_minute (op));
    else
      g_string_append_printf (detail, " %s allows %u calls per window of "
          "%g s;", gst_session_management_op_name (op),
          gst_session_management_op_per_minute (op), m->config->rate_window);
  }
  g_string_append_printf (detail, " the window resets in %u s", real_reset);
  stop_or_kill = g_str_has_suffix (path, "/stop") ||
      g_str_has_suffix (path, "/kill");
  if (stop_or_kill)
    g_string_append (detail, "; the runner keeps running");
  GST_INFO ("%s %s: rate limited for %u s", method, path, real_reset);

  value = g_strdup_printf ("%u", real_reset);
  soup_message_headers_replace (soup_server_message_get_response_headers
      (msg), "x-ratelimit-reset", value);
  svc_respond_request_error (msg, 429, "bad_request", detail->str);
  soup_server_message_set_status (msg, 429, "Too Many Requests");
  g_free (value);
  g_string_free (detail, TRUE);
  g_free (key);
  return FALSE;
}

/* ---------------------------------------------------------------- *
 * answers
 * ---------------------------------------------------------------- */

static void
add_runner (JsonBuilder * b, Runner * r)
{
  gchar *started = iso_time (r->started_at);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "runner_id");
  json_builder_add_string_value (b, r->id);
  json_builder_set_member_name (b, "app_id");
  json_builder_add_string_value (b, r->app_id);
  json_builder_set_member_name (b, "state");
  json_builder_add_string_value (b, runner_state_names[r->state]);
  json_builder_set_member_name (b, "region");
  json_builder_add_string_value (b, "local");
  json_builder_set_member_name (b, "machine_type");
  json_builder_add_string_value (b, "reference-cpu");
  json_builder_set_member_name (b, "started_at");
  json_builder_add_string_value (b, started);
  json_builder_set_member_name (b, "ended_at");
  if (r->ended_at) {
    gchar *ended = iso_time (r->ended_at);

    json_builder_add_string_value (b, ended);
    g_free (ended);
  } else {
    json_builder_add_null_value (b);
  }
  json_builder_set_member_name (b, "uptime_seconds");
  json_builder_add_int_value (b, ((r->ended_at ? r->ended_at :
              g_get_real_time ()) - r->started_at) / G_USEC_PER_SEC);
  json_builder_set_member_name (b, "requests_served");
  json_builder_add_int_value (b, r->requests);
  json_builder_end_object (b);
  g_free (started);
}

/* the runners of @app_id (all with NULL) as the member "runners" */
static void
add_runners (SvcManagement * m, JsonBuilder * b, const gchar * app_id)
{
  guint i;

  json_builder_set_member_name (b, "runners");
  json_builder_begin_array (b);
  for (i = 0; i < m->runners->len; i++) {
    Runner *r = g_ptr_array_index (m->runners, i);

    if (!app_id || g_str_equal (r->app_id, app_id))
      add_runner (b, r);
  }
  json_builder_end_array (b);
}

static void
apps_list (SvcManagement * m, SoupServerMessage * msg)
{
  JsonBuilder *b = json_builder_new ();
  const SvcQueueApp *apps;
  guint n, i, j;

  apps = svc_queue_apps (&n);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "apps");
  json_builder_begin_array (b);
  for (i = 0; i < n; i++) {
    gchar *id = g_strconcat (SVC_APP_OWNER "/", apps[i].name, NULL);
    guint running = 0, total = 0;

    for (j = 0; j < m->runners->len; j++) {
      Runner *r = g_ptr_array_index (m->runners, j);

      if (g_str_equal (r->app_id, id)) {
        total++;
        running += r->state == RUNNER_RUNNING;
      }
    }
    json_builder_begin_object (b);
    json_builder_set_member_name (b, "app_id");
    json_builder_add_string_value (b, id);
    json_builder_set_member_name (b, "owner");
    json_builder_add_string_value (b, SVC_APP_OWNER);
    json_builder_set_member_name (b, "name");
    json_builder_add_string_value (b, apps[i].name);
    json_builder_set_member_name (b, "description");
    json_builder_add_string_value (b, apps[i].description);
    json_builder_set_member_name (b, "runners");
    json_builder_add_int_value (b, total);
    json_builder_set_member_name (b, "running");
    json_builder_add_int_value (b, running);
    json_builder_end_object (b);
    g_free (id);
  }
  json_builder_end_array (b);
  json_builder_end_object (b);
  svc_respond_json (msg, 200, svc_json_builder_finish (b));
}

static void
app_runners (SvcManagement * m, SoupServerMessage * msg, const gchar * app_id)
{
  JsonBuilder *b;

  if (!app_exists (app_id)) {
    svc_respond_request_error (msg, 404, "bad_request", "no such app");
    return;
  }
  b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "app_id");
  json_builder_add_string_value (b, app_id);
  add_runners (m, b, app_id);
  json_builder_end_object (b);
  svc_respond_json (msg, 200, svc_json_builder_finish (b));
}

static void
runners_list (SvcManagement * m, SoupServerMessage * msg)
{
  JsonBuilder *b = json_builder_new ();

  json_builder_begin_object (b);
  add_runners (m, b, NULL);
  json_builder_end_object (b);
  svc_respond_json (msg, 200, svc_json_builder_finish (b));
}

static void
runner_get (SoupServerMessage * msg, Runner * r)
{
  JsonBuilder *b = json_builder_new ();

  add_runner (b, r);
  svc_respond_json (msg, 200, svc_json_builder_finish (b));
}

static void
runner_logs (SoupServerMessage * msg, Runner * r)
{
  JsonBuilder *b = json_builder_new ();
  GList *l;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "runner_id");
  json_builder_add_string_value (b, r->id);
  json_builder_set_member_name (b, "lines");
  json_builder_begin_array (b);
  for (l = r->lines.head; l; l = l->next)
    json_builder_add_string_value (b, l->data);
  json_builder_end_array (b);
  json_builder_end_object (b);
  svc_respond_json (msg, 200, svc_json_builder_finish (b));
}

static void
runner_end (SoupServerMessage * msg, Runner * r, gboolean kill)
{
  JsonBuilder *b = json_builder_new ();
  RunnerState before = r->state;

  /* stop: a running runner stops; kill: any runner not killed is */
  if ((kill && r->state != RUNNER_KILLED) ||
      (!kill && r->state == RUNNER_RUNNING)) {
    r->state = kill ? RUNNER_KILLED : RUNNER_STOPPED;
    r->ended_at = g_get_real_time ();
    runner_log (r, kill ? "killed (SIGKILL)" : "stopped (graceful)");
    GST_INFO ("runner %s %s", r->id, kill ? "killed" : "stopped");
  }
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "runner_id");
  json_builder_add_string_value (b, r->id);
  json_builder_set_member_name (b, "previous_state");
  json_builder_add_string_value (b, runner_state_names[before]);
  json_builder_set_member_name (b, "state");
  json_builder_add_string_value (b, runner_state_names[r->state]);
  json_builder_end_object (b);
  svc_respond_json (msg, 200, svc_json_builder_finish (b));
}

/* A pretend shell: nothing is executed */
static void
fake_command (Runner * r, gchar ** argv, gint * exit_code, gchar ** out,
    gchar ** err)
{
  const gchar *cmd = argv[0];

  *exit_code = 0;
  *err = g_strdup ("");
  if (g_str_equal (cmd, "echo")) {
    gchar *joined = g_strjoinv (" ", argv + 1);

    *out = g_strconcat (joined, "\n", NULL);
    g_free (joined);
  } else if (g_str_equal (cmd, "true")) {
    *out = g_strdup ("");
  } else if (g_str_equal (cmd, "false")) {
    *out = g_strdup ("");
    *exit_code = 1;
  } else if (g_str_equal (cmd, "hostname")) {
    *out = g_strconcat (r->id, "\n", NULL);
  } else if (g_str_equal (cmd, "pwd")) {
    *out = g_strdup ("/app\n");
  } else if (g_str_equal (cmd, "whoami")) {
    *out = g_strdup ("app\n");
  } else if (g_str_equal (cmd, "uname")) {
    *out = g_strdup ("Linux\n");
  } else {
    *out = g_strdup ("");
    g_free (*err);
    *err = g_strdup_printf ("sh: %s: command not found\n", cmd);
    *exit_code = 127;
  }
}

static void
runner_exec (SvcManagement * m, SoupServerMessage * msg, Runner * r)
{
  gchar *why = NULL, *out, *err, *line, *joined;
  JsonNode *root = svc_read_json_body (msg, MAX_EXEC_BODY, &why);
  JsonNode *command = NULL;
  JsonArray *array;
  GPtrArray *argv;
  JsonBuilder *b;
  gint exit_code;
  guint i, n;

  if (root && JSON_NODE_HOLDS_OBJECT (root))
    command = json_object_get_member (json_node_get_object (root), "command");
  if (!command || !JSON_NODE_HOLDS_ARRAY (command)) {
    svc_respond_request_error (msg, 400, "bad_request", why ? why :
        "the body must be {\"command\": [\"word\", ...]}");
    goto out;
  }
  array = json_node_get_array (command);
  n = json_array_get_length (array);
  if (n == 0) {
    static const gchar *const loc[] = { "body", "command", NULL };
    JsonNode *ctx = svc_json_object_int ("min_length", 1);

    svc_respond_model_error (msg, m->ctx, 422, FALSE,
        "sequence_too_short", loc, "the command needs at least one word",
        ctx, command);
    json_node_unref (ctx);
    goto out;
  }
  argv = g_ptr_array_new ();
  for (i = 0; i < n; i++) {
    JsonNode *word = json_array_get_element (array, i);

    if (!JSON_NODE_HOLDS_VALUE (word) ||
        json_node_get_value_type (word) != G_TYPE_STRING) {
      g_ptr_array_unref (argv);
      svc_respond_request_error (msg, 400, "bad_request",
          "every word of the command must be a string");
      goto out;
    }
    g_ptr_array_add (argv, (gpointer) json_node_get_string (word));
  }
  g_ptr_array_add (argv, NULL);
  if (r->state != RUNNER_RUNNING) {
    g_ptr_array_unref (argv);
    svc_respond_request_error (msg, 409, "bad_request",
        "the runner is not running");
    goto out;
  }

  fake_command (r, (gchar **) argv->pdata, &exit_code, &out, &err);
  joined = g_strjoinv (" ", (gchar **) argv->pdata);
  line = g_strdup_printf ("exec: %.200s (exit %d)", joined, exit_code);
  runner_log (r, line);
  g_free (line);
  g_free (joined);

  b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "runner_id");
  json_builder_add_string_value (b, r->id);
  json_builder_set_member_name (b, "command");
  json_builder_add_value (b, json_node_copy (command));
  json_builder_set_member_name (b, "exit_code");
  json_builder_add_int_value (b, exit_code);
  json_builder_set_member_name (b, "stdout");
  json_builder_add_string_value (b, out);
  json_builder_set_member_name (b, "stderr");
  json_builder_add_string_value (b, err);
  json_builder_end_object (b);
  svc_respond_json (msg, 200, svc_json_builder_finish (b));
  g_free (out);
  g_free (err);
  g_ptr_array_unref (argv);

out:
  g_free (why);
  if (root)
    json_node_unref (root);
}

/* ---------------------------------------------------------------- *
 * routing
 * ---------------------------------------------------------------- */

gboolean
svc_management_handle (SvcManagement * m, SoupServerMessage * msg,
    const gchar * path, gchar ** segments)
{
  const gchar *method = soup_server_message_get_method (msg);
  gboolean get = g_str_equal (method, "GET");
  gboolean post = g_str_equal (method, "POST");
  guint n = g_strv_length (segments);
  const gchar *want = NULL;
  Runner *r = NULL;

  if (!g_str_equal (segments[0], "apps") &&
      !g_str_equal (segments[0], "runners"))
    return FALSE;
  if (!svc_check_auth (m->config, msg) || !rate_limit (m, msg, path))
    return TRUE;

  if (g_str_equal (segments[0], "apps")) {
    if (n == 1) {
      if (get)
        apps_list (m, msg);
      else
        want = "GET";
    } else if (n >= 3 && g_str_equal (segments[n - 1], "runners")) {
      if (get) {
        gchar *last = segments[n - 1], *app_id;

        segments[n - 1] = NULL;
        app_id = g_strjoinv ("/", segments + 1);
        segments[n - 1] = last;
        app_runners (m, msg, app_id);
        g_free (app_id);
      } else {
        want = "GET";
      }
    } else {
      svc_respond_request_error (msg, 404, "bad_request", "no such endpoint");
    }
  } else if (n == 1) {
    if (get)
      runners_list (m, msg);
    else
      want = "GET";
  } else if (n > 3 || !(r = find_runner (m, segments[1]))) {
    svc_respond_request_error (msg, 404, "bad_request", n > 3 ?
        "no such endpoint" : "no such runner");
  } else if (n == 2) {
    if (get)
      runner_get (msg, r);
    else
      want = "GET";
  } else if (g_str_equal (segments[2], "logs")) {
    if (get)
      runner_logs (msg, r);
    else
      want = "GET";
  } else if (g_str_equal (segments[2], "exec") ||
      g_str_equal (segments[2], "stop") || g_str_equal (segments[2], "kill")) {
    if (!post)
      want = "POST";
    else if (g_str_equal (segments[2], "exec"))
      runner_exec (m, msg, r);
    else
      runner_end (msg, r, g_str_equal (segments[2], "kill"));
  } else {
    svc_respond_request_error (msg, 404, "bad_request", "no such endpoint");
  }
  if (want) {
    gchar *detail = g_strdup_printf ("this endpoint takes %s", want);

    svc_respond_request_error (msg, 405, "bad_request", detail);
    g_free (detail);
  }
  return TRUE;
}

/* ---------------------------------------------------------------- *
 * life
 * ---------------------------------------------------------------- */

SvcManagement *
svc_management_new (const SvcContext * ctx)
{
  SvcManagement *m = g_new0 (SvcManagement, 1);
  const SvcQueueApp *apps;
  guint n, i, j;

  m->ctx = ctx;
  m->config = ctx->config;
  m->runners = g_ptr_array_new_with_free_func ((GDestroyNotify) runner_free);
  m->next_pick = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  svc_management_reset_limits (m);

  apps = svc_queue_apps (&n);
  for (i = 0; i < n; i++) {
    for (j = 0; j < apps[i].runners; j++) {
      Runner *r = g_new0 (Runner, 1);

      r->id = g_strdup_printf ("runner-%s-%u", apps[i].name, j + 1);
      r->app_id = g_strconcat (SVC_APP_OWNER "/", apps[i].name, NULL);
      g_queue_init (&r->lines);
      runner_start (r);
      g_ptr_array_add (m->runners, r);
    }
  }
  return m;
}

void
svc_management_free (SvcManagement * m)
{
  gst_session_rate_limiter_unref (m->limiter);
  g_ptr_array_unref (m->runners);
  g_hash_table_unref (m->next_pick);
  g_free (m);
}
