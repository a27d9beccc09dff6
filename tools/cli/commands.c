/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gst-session submit, apps and runners: one GstSessionPlatform call each,
 * never retried here (spec 001: the CLI does not retry a rejected call);
 * the exit code says what the caller may do next.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <string.h>

#include "cli.h"

#define MAX_DATA (GST_SESSION_PLATFORM_MAX_BODY)

/* ---------------------------------------------------------------------- */
/* errors                                                                 */

static gint
exit_code_of (const GError * error)
{
  if (error->domain != GST_SESSION_ERROR)
    return CLI_EXIT_INTERNAL;
  switch (error->code) {
    case GST_SESSION_PLATFORM_ERROR_INVALID_INPUT:
      return CLI_EXIT_USAGE;
    case GST_SESSION_PLATFORM_ERROR_REFUSED:
      return CLI_EXIT_REFUSED;
    case GST_SESSION_PLATFORM_ERROR_RATE_LIMITED:
      return CLI_EXIT_RATE_LIMITED;
    case GST_SESSION_PLATFORM_ERROR_TRANSIENT:
      return CLI_EXIT_TRANSIENT;
    default:
      return CLI_EXIT_INTERNAL;
  }
}

/* Reports a failed call; clears @http_error_ptr. */
static gint
call_failed (const CliGlobal * global, const gchar * what,
    gboolean stop_or_kill, GError * error, guint retry_after,
    GstSessionHttpError ** http_error_ptr)
{
  GstSessionHttpError *http_error = g_steal_pointer (http_error_ptr);
  gint code = exit_code_of (error);
  JsonObject *extra = json_object_new ();
  guint i;

  if (code == CLI_EXIT_RATE_LIMITED)
    json_object_set_int_member (extra, "retry_after", retry_after);
  if (http_error) {
    json_object_set_int_member (extra, "http_status", http_error->status);
    if (http_error->error_type)
      json_object_set_string_member (extra, "error_type",
          http_error->error_type);
    if (http_error->detail)
      json_object_set_string_member (extra, "detail", http_error->detail);
    if (http_error->retryable >= 0)
      json_object_set_boolean_member (extra, "retryable",
          http_error->retryable == 1);
  }
  if (code == CLI_EXIT_RATE_LIMITED) {
    /* one plain line first (spec 001, Limits, rule 3), then the why */
    json_object_set_string_member (extra, "reason", error->message);
    code = cli_fail_with (global, code, extra, "%s was rate limited; %s"
        "retry after %u s", what, stop_or_kill ?
        "the runner is still running; " : "", retry_after);
    if (!global->json)
      g_printerr ("  (%s)\n", error->message);
  } else {
    code = cli_fail_with (global, code, extra, "%s", error->message);
  }
  /* the items of a model-level error, for people */
  for (i = 0; !global->json && http_error && i < http_error->items->len; i++) {
    GstSessionHttpErrorItem *item = g_ptr_array_index (http_error->items, i);

    g_printerr ("  %s%s%s (%s)\n", item->loc ? item->loc : "",
        item->loc ? ": " : "", item->msg ? item->msg : "",
        item->type ? item->type : "?");
  }
  g_clear_pointer (&http_error, gst_session_http_error_free);
  return code;
}

static GstSessionPlatform *
platform_new (const CliGlobal * global, const gchar * queue_url,
    const gchar * api_url)
{
  GstSessionPlatform *platform = gst_session_platform_new (queue_url,
      api_url, global->api_key);

  if (global->timeout_ms >= 0)
    g_object_set (platform, "timeout", (guint) global->timeout_ms, NULL);
  return platform;
}

/* ---------------------------------------------------------------------- */
/* submit                                                                 */

static gchar *
read_data (const gchar * path, GError ** error)
{
  gchar *data = NULL;
  gsize len = 0;

  if (g_str_equal (path, "-")) {
    GString *s = g_string_new (NULL);
    gchar buf[4096];
    gsize n;

    while ((n = fread (buf, 1, sizeof (buf), stdin)) > 0 && s->len <= MAX_DATA)
      g_string_append_len (s, buf, n);
    len = s->len;
    data = g_string_free (s, FALSE);
  } else if (!g_file_get_contents (path, &data, &len, error)) {
    return NULL;
  }
  if (len > MAX_DATA || memchr (data, '\0', len)) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s is larger "
        "than %d bytes or holds a NUL byte", path, MAX_DATA);
    g_clear_pointer (&data, g_free);
  }
  return data;
}

gint
cli_submit (CliGlobal * global, gint argc, gchar ** argv)
{
  gchar *queue_url = NULL, *webhook = NULL, *data = NULL, *data_file = NULL;
  gchar *request_id = NULL, *gateway_request_id = NULL, *body = NULL;
  GstSessionPlatform *platform = NULL;
  GstSessionHttpError *http_error = NULL;
  GError *error = NULL;
  guint retry_after = 0;
  gint ret = CLI_EXIT_USAGE;
  const GOptionEntry entries[] = {
    {"queue-url", 0, 0, G_OPTION_ARG_STRING, &queue_url,
        "The queue host, {queue_url} of spec 001", "URL"},
    {"webhook", 0, 0, G_OPTION_ARG_STRING, &webhook,
        "Where the result is delivered (svc_webhook)", "URL"},
    {"data", 0, 0, G_OPTION_ARG_STRING, &data,
        "The request body, a JSON object (default {})", "JSON"},
    {"data-file", 0, 0, G_OPTION_ARG_FILENAME, &data_file,
        "Read the request body from FILE (- for stdin)", "FILE"},
    {NULL}
  };

  if (!cli_parse_options (global, "submit", "APP_PATH",
          "Queues a request for the app at APP_PATH (owner/app) with a "
          "webhook; prints request_id and gateway_request_id. Never resent: "
          "a second submission would queue the request twice.", entries,
          &argc, &argv))
      goto out;
  if (argc != 2)
    ret = cli_fail (global, CLI_EXIT_USAGE, "submit needs one APP_PATH");
  else if (queue_url == NULL || webhook == NULL)
    ret = cli_fail (global, CLI_EXIT_USAGE, "submit needs --queue-url and "
        "--webhook");
  else if (data && data_file)
    ret = cli_fail (global, CLI_EXIT_USAGE, "give --data or --data-file, "
        "not both");
  else
    ret = CLI_EXIT_OK;
  if (ret != CLI_EXIT_OK)
    goto out;
  if (data_file && (body = read_data (data_file, &error)) == NULL) {
    ret = cli_fail (global, CLI_EXIT_USAGE, "--data-file: %s", error->message);
    goto out;
  }
  if (body == NULL)
    body = g_strdup (data ? data : "{}");

  platform = platform_new (global, queue_url, NULL);
  if (!gst_session_platform_submit (platform, argv[1], webhook, body, NULL,
          &request_id, &gateway_request_id, &retry_after, &http_error,
          &error)) {
    ret = call_failed (global, "the submission", FALSE, error, retry_after,
        &http_error);
    goto out;
  }
  if (global->json) {
    JsonObject * o = json_object_new ();
    JsonNode *node = json_node_new (JSON_NODE_OBJECT);

    json_object_set_string_member (o, "request_id", request_id);
    json_object_set_string_member (o, "gateway_request_id", gateway_request_id);
    json_node_take_object (node, o);
    cli_print_json (node);
    json_node_unref (node);
  } else {
    g_print ("request_id: %s\ngateway_request_id: %s\n", request_id,
        gateway_request_id);
  }
  ret = CLI_EXIT_OK;

out:
  g_clear_error (&error);
  if (platform)
    gst_object_unref (platform);
  g_free (request_id);
  g_free (gateway_request_id);
  g_free (body);
  g_free (queue_url);
  g_free (webhook);
  g_free (data);
  g_free (data_file);
  return ret;
}

/* ---------------------------------------------------------------------- */
/* management output                                                      */

static const gchar *
member_string (JsonObject * o, const gchar * name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  if (n && JSON_NODE_HOLDS_VALUE (n) &&
      json_node_get_value_type (n) == G_TYPE_STRING)
    return json_node_get_string (n);
  return NULL;
}

/* A scalar member as text ("-" when absent or not a scalar). */
static gchar *
member_text (JsonObject * o, const gchar * name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  if (n == NULL || JSON_NODE_HOLDS_NULL (n))
    return g_strdup ("-");
  if (!JSON_NODE_HOLDS_VALUE (n))
    return cli_json_to_string (n, FALSE);
  if (json_node_get_value_type (n) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (n));
  if (json_node_get_value_type (n) == G_TYPE_BOOLEAN)
    return g_strdup (json_node_get_boolean (n) ? "true" : "false");
  if (json_node_get_value_type (n) == G_TYPE_DOUBLE)
    return g_strdup_printf ("%g", json_node_get_double (n));
  return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (n));
}

static JsonArray *
member_array (JsonObject * o, const gchar * name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  return n && JSON_NODE_HOLDS_ARRAY (n) ? json_node_get_array (n) : NULL;
}

static JsonObject *
as_object (JsonNode * n)
{
  return n && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

/* Rows of the objects of @array, one column per name. */
static void
print_table (JsonArray * array, const gchar * const *columns)
{
  guint n = json_array_get_length (array), n_cols = g_strv_length ((gchar **)
      columns), i, c;
  gchar ***cells = g_new0 (gchar **, n + 1);
  gsize *widths = g_new0 (gsize, n_cols);

  for (c = 0; c < n_cols; c++)
    widths[c] = strlen (columns[c]);
  for (i = 0; i < n; i++) {
    JsonObject *o = as_object (json_array_get_element (array, i));

    cells[i] = g_new0 (gchar *, n_cols + 1);
    for (c = 0; c < n_cols; c++) {
      cells[i][c] = member_text (o, columns[c]);
      widths[c] = MAX (widths[c], (gsize) g_utf8_strlen (cells[i][c], -1));
    }
  }
  for (c = 0; c < n_cols; c++) {
    gchar *up = g_ascii_strup (columns[c], -1);

    g_print ("%-*s%s", c + 1 < n_cols ? (gint) widths[c] : 0, up,
        c + 1 < n_cols ? "  " : "\n");
    g_free (up);
  }
  for (i = 0; i < n; i++) {
    for (c = 0; c < n_cols; c++)
      g_print ("%-*s%s", c + 1 < n_cols ? (gint) widths[c] : 0,
          cells[i][c], c + 1 < n_cols ? "  " : "\n");
    g_strfreev (cells[i]);
  }
  g_free (cells);
  g_free (widths);
}

static void
print_fields (JsonObject * o)
{
  GList *names = json_object_get_members (o), *l;

  for (l = names; l; l = l->next) {
    gchar *text = member_text (o, l->data);

    g_print ("%s: %s\n", (gchar *) l->data, text);
    g_free (text);
  }
  g_list_free (names);
}

static const gchar *const app_columns[] = { "app_id", "running", "runners",
  "description", NULL
};

static const gchar *const runner_columns[] = { "runner_id", "app_id",
  "state", "uptime_seconds", "requests_served", NULL
};

/* Human output of a management answer; FALSE when its shape is not the
 * expected one (then it is printed as JSON). */
static gboolean
print_human (GstSessionManagementOp op, JsonNode * root)
{
  JsonObject *o = as_object (root);
  JsonArray *a;
  guint i;

  switch (op) {
    case GST_SESSION_MANAGEMENT_OP_APPS_LIST:
      if ((a = member_array (o, "apps")) == NULL)
        return FALSE;
      print_table (a, app_columns);
      return TRUE;
    case GST_SESSION_MANAGEMENT_OP_APPS_RUNNERS:
    case GST_SESSION_MANAGEMENT_OP_RUNNERS_LIST:
      if ((a = member_array (o, "runners")) == NULL)
        return FALSE;
      print_table (a, runner_columns);
      return TRUE;
    case GST_SESSION_MANAGEMENT_OP_GET_RUNNER:
      if (o == NULL)
        return FALSE;
      print_fields (o);
      return TRUE;
    case GST_SESSION_MANAGEMENT_OP_RUNNERS_LOGS:
      a = member_array (as_object (json_object_get_member (o, "logs")),
          "lines");
      if (a == NULL)
        return FALSE;
      for (i = 0; i < json_array_get_length (a); i++) {
        JsonNode *n = json_array_get_element (a, i);

        g_print ("%s\n", JSON_NODE_HOLDS_VALUE (n) &&
            json_node_get_value_type (n) == G_TYPE_STRING ?
            json_node_get_string (n) : "");
      }
      return TRUE;
    case GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL:{
      const gchar *out = member_string (o, "stdout");
      const gchar *err = member_string (o, "stderr");
      gchar *status = member_text (o, "exit_code");

      if (o == NULL || !json_object_has_member (o, "exit_code")) {
        g_free (status);
        return FALSE;
      }
      g_print ("%s", out ? out : "");
      fflush (stdout);
      g_printerr ("%s", err ? err : "");
      if (!g_str_equal (status, "0"))
        g_printerr ("gst-session: the command exited with status %s on the "
            "runner\n", status);
      g_free (status);
      return TRUE;
    }
    case GST_SESSION_MANAGEMENT_OP_RUNNERS_STOP:
    case GST_SESSION_MANAGEMENT_OP_RUNNERS_KILL:{
      const gchar *id = member_string (o, "runner_id");
      const gchar *before = member_string (o, "previous_state");
      const gchar *after = member_string (o, "state");

      if (!id || !before || !after)
        return FALSE;
      g_print ("%s: %s -> %s\n", id, before, after);
      return TRUE;
    }
    default:
      return FALSE;
  }
}

/* ---------------------------------------------------------------------- */
/* apps and runners                                                       */

typedef struct
{
  const gchar *group;           /* "apps" or "runners" */
  const gchar *name;
  GstSessionManagementOp op;
  const gchar *target;          /* the positional argument, or NULL */
  gboolean command;             /* takes "-- CMD..." */
} Operation;

static const Operation operations[] = {
  {"apps", "list", GST_SESSION_MANAGEMENT_OP_APPS_LIST, NULL, FALSE},
  {"apps", "runners", GST_SESSION_MANAGEMENT_OP_APPS_RUNNERS, "APP", FALSE},
  {"runners", "list", GST_SESSION_MANAGEMENT_OP_RUNNERS_LIST, NULL, FALSE},
  {"runners", "get", GST_SESSION_MANAGEMENT_OP_GET_RUNNER, "ID", FALSE},
  {"runners", "logs", GST_SESSION_MANAGEMENT_OP_RUNNERS_LOGS, "ID", FALSE},
  {"runners", "exec", GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL, "ID", TRUE},
  {"runners", "shell", GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL, "ID", TRUE},
  {"runners", "stop", GST_SESSION_MANAGEMENT_OP_RUNNERS_STOP, "ID", FALSE},
  {"runners", "kill", GST_SESSION_MANAGEMENT_OP_RUNNERS_KILL, "ID", FALSE},
};

static gint
manage (CliGlobal * global, const gchar * group, gint argc, gchar ** argv)
{
  const Operation *op = NULL;
  gchar *api_url = NULL, *command_path = NULL, *params = NULL;
  gchar **command = NULL;
  GstSessionPlatform *platform = NULL;
  GstSessionHttpError *http_error = NULL;
  JsonNode *result = NULL;
  GError *error = NULL;
  guint retry_after = 0, i;
  gint ret = CLI_EXIT_USAGE, words, dash = -1;
  const GOptionEntry entries[] = {
    {"api-url", 0, 0, G_OPTION_ARG_STRING, &api_url,
        "The management API, {api_url}", "URL"},
    {NULL}
  };

  for (i = 0; argc > 1 && i < G_N_ELEMENTS (operations); i++) {
    if (g_str_equal (operations[i].group, group) &&
        g_str_equal (operations[i].name, argv[1]))
      op = &operations[i];
  }
  if (op == NULL)
    return cli_fail (global, CLI_EXIT_USAGE, "%s needs a subcommand: %s "
        "(see gst-session --help)", group, g_str_equal (group, "apps") ?
        "list or runners" : "list, get, logs, exec, shell, stop or kill");

  /* from here argv[0] is the subcommand */
  argc--;
  argv++;
  command_path = g_strdup_printf ("%s %s", group, op->name);
  params = g_strdup_printf ("%s%s", op->target ? op->target : "",
      op->command ? " -- CMD..." : "");
  if (!cli_parse_options (global, command_path, params,
          "One management operation of spec 001, rate limited by the "
          "service (exit code 4 and \"retry after N s\" when refused; a "
          "refused stop or kill leaves the runner running). Not retried.",
          entries, &argc, &argv))
      goto out;
  for (i = 1; i < (guint) argc; i++) {
    if (g_str_equal (argv[i], "--")) {
      dash = i;
      break;
    }
  }
  words = dash >= 0 ? dash : argc;
  if (words != (op->target ? 2 : 1)) {
    ret = cli_fail (global, CLI_EXIT_USAGE, "%s takes %s", command_path,
        op->target ? (op->command ? "an ID, then -- and a command" :
            op->target) : "no arguments");
    goto out;
  }
  if (op->command && (dash < 0 || dash + 1 >= argc)) {
    ret = cli_fail (global, CLI_EXIT_USAGE, "%s needs a command after --",
        command_path);
    goto out;
  }
  if (!op->command && dash >= 0) {
    ret = cli_fail (global, CLI_EXIT_USAGE, "%s takes no command",
        command_path);
    goto out;
  }
  if (api_url == NULL) {
    ret = cli_fail (global, CLI_EXIT_USAGE, "%s needs --api-url", command_path);
    goto out;
  }
  if (op->command)
    command = g_strdupv (argv + dash + 1);

  platform = platform_new (global, NULL, api_url);
  result = gst_session_platform_manage (platform, op->op,
      op->target ? argv[1] : NULL, (const gchar * const *) command, NULL,
      &retry_after, &http_error, &error);
  if (result == NULL) {
    ret = call_failed (global, command_path, op->op ==
        GST_SESSION_MANAGEMENT_OP_RUNNERS_STOP || op->op ==
        GST_SESSION_MANAGEMENT_OP_RUNNERS_KILL, error, retry_after,
        &http_error);
    goto out;
  }
  if (global->json) {
    cli_print_json (result);
  } else if (!print_human (op->op, result)) {
    gchar *text = cli_json_to_string (result, TRUE);

    g_print ("%s\n", text);
    g_free (text);
  }
  ret = CLI_EXIT_OK;

out:
  g_clear_error (&error);
  g_clear_pointer (&http_error, gst_session_http_error_free);
  g_clear_pointer (&result, json_node_unref);
  if (platform)
    gst_object_unref (platform);
  g_strfreev (command);
  g_free (command_path);
  g_free (params);
  g_free (api_url);
  return ret;
}

gint
cli_apps (CliGlobal * global, gint argc, gchar ** argv)
{
  return manage (global, "apps", argc, argv);
}

gint
cli_runners (CliGlobal * global, gint argc, gchar ** argv)
{
  return manage (global, "runners", argc, argv);
}
