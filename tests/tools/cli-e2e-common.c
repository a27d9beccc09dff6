/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>

#include "cli-e2e-common.h"

CliChild *
service_start (void)
{
  return cli_service_start ("--time-scale", "0.01", NULL);
}

gchar *
jwks_url (CliChild * svc)
{
  return g_strconcat (svc->url, "/.well-known/jwks.json", NULL);
}

/* webhook listen against @svc; @mode and @target: "--jsonl" FILE, ... */
CliChild *
listen_start (CliChild * svc, const gchar * port, const gchar * db,
    const gchar * mode, const gchar * target)
{
  gchar *jwks = jwks_url (svc);
  /* no cooldown: a rotated key is fetched at the first delivery */
  const gchar *args[] = { "webhook", "listen", "--port", port, "--jwks-url",
    jwks, "--api-url", svc->url, "--db", db, mode, target,
    "--refetch-cooldown", "0", NULL
  };
  CliChild *l = cli_listener_start (NULL, args);

  g_free (jwks);
  return l;
}

gchar *
webhook_url (CliChild * listener)
{
  return g_strconcat (listener->url, "/hook", NULL);
}

/* gst-session --json submit; returns the request id */
gchar *
submit (CliChild * svc, const gchar * app, const gchar * webhook,
    const gchar * data)
{
  gchar *queue = g_strconcat (svc->url, "/queue", NULL);
  CliRun *run = cli_run ("--json", "submit", "--queue-url", queue, app,
      "--webhook", webhook, "--data", data, NULL);
  JsonParser *parser = json_parser_new ();
  JsonObject *o;
  gchar *id;

  fail_unless_equals_int (run->status, 0);
  fail_unless (json_parser_load_from_data (parser, run->out, -1, NULL),
      "%s", run->out);
  o = json_node_get_object (json_parser_get_root (parser));
  id = g_strdup (json_object_get_string_member (o, "request_id"));
  fail_unless_equals_string (id, json_object_get_string_member (o,
          "gateway_request_id"));
  g_object_unref (parser);
  cli_run_free (run);
  g_free (queue);
  return id;
}

gboolean
wait_processed (CliChild * listener, const gchar * id)
{
  gchar *needle = g_strconcat ("processed ", id, NULL);
  gboolean ok = cli_child_wait_stderr (listener, needle, 1, WAIT_MS);

  g_free (needle);
  return ok;
}

JsonObject *
parse_object (const gchar * text, JsonParser ** parser)
{
  *parser = json_parser_new ();
  fail_unless (json_parser_load_from_data (*parser, text, -1, NULL), "%s",
      text);
  fail_unless (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (*parser)));
  return json_node_get_object (json_parser_get_root (*parser));
}

/* The service's record of the deliveries of @id: how many deliveries, how
 * many delivered, how many attempts in all and how many failed. */
void
service_deliveries (CliChild * svc, const gchar * id, guint * n,
    guint * delivered, guint * attempts, guint * failed)
{
  gchar *url = g_strconcat (svc->url, "/admin/deliveries", NULL), *text;
  JsonParser *parser;
  JsonArray *all;
  guint i, j;

  *n = *delivered = *attempts = *failed = 0;
  fail_unless_equals_int (cli_http ("GET", url, NULL, &text), 200);
  all = json_object_get_array_member (parse_object (text, &parser),
      "deliveries");
  for (i = 0; i < json_array_get_length (all); i++) {
    JsonObject *d = json_array_get_object_element (all, i);
    JsonArray *tries = json_object_get_array_member (d, "attempts");

    if (g_strcmp0 (json_object_get_string_member (d, "request_id"), id))
      continue;
    (*n)++;
    if (g_str_equal (json_object_get_string_member (d, "state"), "delivered"))
      (*delivered)++;
    for (j = 0; j < json_array_get_length (tries); j++) {
      gint64 status = json_object_get_int_member
          (json_array_get_object_element (tries, j), "status");

      (*attempts)++;
      if (status < 200 || status > 299)
        (*failed)++;
    }
  }
  g_object_unref (parser);
  g_free (text);
  g_free (url);
}

typedef struct
{
  CliChild *svc;
  const gchar *id;
  guint deliveries;
  guint delivered;
  guint failed;
} DeliveryWait;

static gboolean
deliveries_reached (gpointer user_data)
{
  DeliveryWait *w = user_data;
  guint n, delivered, attempts, failed;

  service_deliveries (w->svc, w->id, &n, &delivered, &attempts, &failed);
  return n >= w->deliveries && delivered >= w->delivered && failed >= w->failed;
}

gboolean
wait_deliveries (CliChild * svc, const gchar * id, guint deliveries,
    guint delivered, guint failed)
{
  DeliveryWait w = { svc, id, deliveries, delivered, failed };

  return cli_wait_for (deliveries_reached, &w, WAIT_MS);
}
