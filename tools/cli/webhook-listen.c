/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gst-session webhook listen: an HTTP receiver of webhook deliveries.
 *
 * Each POST is verified (GstSessionWebhookVerifier: key set cache and
 * refetch, optional IP ranges); a valid delivery is stored in SQLite and
 * the commit synced BEFORE the 2xx leaves; a request id stored already
 * gets 2xx and nothing else. Stored deliveries are processed one at a
 * time, oldest first, and marked processed after success; what is stored
 * but not processed at start (a crash) is processed then. Processed ids
 * older than --keep-ids are pruned.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <glib-unix.h>

#include "cli.h"
#include "guard.h"
#include "store.h"
#include "process.h"

/* spec 001: retries within 2 hours, timestamps within 300 s */
#define MIN_KEEP_IDS (2 * 60 * 60 + GST_SESSION_WEBHOOK_LEEWAY)
#define DEFAULT_KEEP_IDS (72 * 60 * 60)
#define DEFAULT_EXEC_TIMEOUT 600
#define MAX_BACKOFF 300
#define SHUTDOWN_GRACE 5

typedef struct
{
  CliGlobal *global;
  gint64 max_body;
  gint64 keep_ids;
  gchar *user_id;               /* the receiving account, or NULL: any */
  CliStore *store;
  CliProcessor *processor;
  GstSessionWebhookVerifier *verifier;
  gboolean check_source;
  SoupServer *server;
  CliGuard *guard;
  CliGuardLimits limits;
  gboolean listener_dead;
  GMainLoop *loop;
  GCancellable *cancellable;
  /* processing */
  CliDelivery *current;
  guint wake_id;
  guint prune_id;
  gboolean stopping;
  guint shutdown_id;
  guint sigint_id;
  guint sigterm_id;
} Listener;

/* One request under verification. */
typedef struct
{
  Listener *l;
  SoupServerMessage *msg;
  GBytes *body;
} Pending;

static void process_next (Listener * l);

static gint64
now_s (void)
{
  return g_get_real_time () / G_USEC_PER_SEC;
}

/* A log line: human on stderr, or a JSON event on stdout with --json.
 * Never holds a key, a signature or a body. */
static void
event (Listener * l, const gchar * name, const gchar * request_id,
    const gchar * format, ...)
G_GNUC_PRINTF (4, 5);

     static void
         event (Listener * l, const gchar * name, const gchar * request_id,
    const gchar * format, ...)
{
  gchar *text = NULL;
  va_list args;

  if (format) {
    va_start (args, format);
    text = g_strdup_vprintf (format, args);
    va_end (args);
  }
  if (l->global->json) {
    JsonObject * o = json_object_new ();
    JsonNode *node = json_node_new (JSON_NODE_OBJECT);

    json_object_set_string_member (o, "event", name);
    json_object_set_int_member (o, "time", now_s ());
    if (request_id)
      json_object_set_string_member (o, "request_id", request_id);
    if (text)
      json_object_set_string_member (o, "detail", text);
    json_node_take_object (node, o);
    cli_print_json (node);
    json_node_unref (node);
  } else {
    g_printerr ("gst-session: %s%s%s%s%s\n", name, request_id ? " " : "",
        request_id ? request_id : "", text ? ": " : "", text ? text : "");
  }
  g_free (text);
}

static void
respond (SoupServerMessage * msg, guint status, const gchar * key,
    const gchar * value)
{
  JsonObject *o = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  gchar *text;

  json_object_set_string_member (o, key, value);
  json_node_take_object (node, o);
  text = cli_json_to_string (node, FALSE);
  json_node_unref (node);
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "application/json",
      SOUP_MEMORY_TAKE, text, strlen (text));
}

/* ---------------------------------------------------------------------- */
/* receiving                                                              */

static void
on_got_chunk (SoupServerMessage * msg, GBytes * chunk, gpointer user_data)
{
  Listener *l = user_data;
  GByteArray *buf = g_object_get_data (G_OBJECT (msg), "body");
  gsize size = g_bytes_get_size (chunk);

  if (buf == NULL)
    return;
  if (buf->len + size > (guint64) l->max_body) {
    /* keep reading (and dropping) to answer 413 at the end */
    g_object_set_data (G_OBJECT (msg), "body", NULL);
    g_object_set_data (G_OBJECT (msg), "too-large", GINT_TO_POINTER (1));
    return;
  }
  if (!cli_guard_hold_body (l->guard, msg, size)) {
    /* all bodies together are at their limit: drop this one, 503 */
    g_object_set_data (G_OBJECT (msg), "body", NULL);
    g_object_set_data (G_OBJECT (msg), "busy", GINT_TO_POINTER (1));
    return;
  }
  g_byte_array_append (buf, g_bytes_get_data (chunk, NULL), size);
}

/* Answers at once and closes, without reading the body: libsoup would
 * read (and wait for) a whole declared body before writing any answer. */
static void
answer_and_close (SoupServerMessage * msg, guint status, const gchar * detail)
{
  GIOStream *stream = soup_server_message_steal_connection (msg);
  gchar *text;

  if (stream == NULL)
    return;
  text = g_strdup_printf ("HTTP/1.1 %u %s\r\nContent-Type: application/json"
      "\r\nContent-Length: %" G_GSIZE_FORMAT "\r\nConnection: close\r\n"
      "\r\n{\"detail\":\"%s\"}", status, soup_status_get_phrase (status),
      strlen (detail) + 13, detail);
  g_output_stream_write_all (g_io_stream_get_output_stream (stream), text,
      strlen (text), NULL, NULL, NULL);
  g_io_stream_close (stream, NULL, NULL);
  g_object_unref (stream);
  g_free (text);
}

/* Before the body: refuse a declared length over the limit without
 * reading it; else collect the body ourselves, up to the limit. */
static void
early_handler (SoupServer * server, SoupServerMessage * msg,
    const char *path, GHashTable * query, gpointer user_data)
{
  Listener *l = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);

  if (g_strcmp0 (soup_server_message_get_method (msg), "POST") != 0) {
    /* answered before any body is read (GET /healthz aside) */
    if (g_strcmp0 (soup_server_message_get_method (msg), "GET") != 0 ||
        g_strcmp0 (path, "/healthz") != 0) {
      soup_message_headers_replace (soup_server_message_get_response_headers
          (msg), "Allow", "POST");
      respond (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, "detail",
          "webhook deliveries are POSTed");
    }
    return;
  }
  if (soup_message_headers_get_encoding (headers) ==
      SOUP_ENCODING_CONTENT_LENGTH &&
      soup_message_headers_get_content_length (headers) > l->max_body) {
    event (l, "rejected", NULL, "413: a body of %" G_GINT64_FORMAT
        " bytes, over the %" G_GINT64_FORMAT " allowed",
        soup_message_headers_get_content_length (headers), l->max_body);
    answer_and_close (msg, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE,
        "the body is larger than the limit");
    return;
  }
  soup_message_body_set_accumulate (soup_server_message_get_request_body
      (msg), FALSE);
  g_object_set_data_full (G_OBJECT (msg), "body", g_byte_array_new (),
      (GDestroyNotify) g_byte_array_unref);
  g_signal_connect (msg, "got-chunk", G_CALLBACK (on_got_chunk), l);
}

static void
pending_free (Pending * p)
{
  g_object_unref (p->msg);
  g_bytes_unref (p->body);
  g_free (p);
}

/* The verdict is in: store a valid delivery, then answer. */
static void
on_verified (GObject * source, GAsyncResult * res, gpointer user_data)
{
  Pending *p = user_data;
  Listener *l = p->l;
  GstSessionWebhookVerification *v;
  GstSessionWebhookDelivery *delivery = NULL;
  GError *error = NULL;
  gsize len = 0;
  const gchar *body = g_bytes_get_data (p->body, &len);
  gchar *headers;

  v = gst_session_webhook_verifier_verify_finish (l->verifier, res, &error);
  if (v == NULL) {
    respond (p->msg, SOUP_STATUS_SERVICE_UNAVAILABLE, "detail",
        "the receiver is shutting down");
    g_clear_error (&error);
    goto out;
  }
  gst_session_webhook_verification_check_account (v, l->user_id);
  if (v->result != GST_SESSION_WEBHOOK_RESULT_VALID) {
    guint status = gst_session_webhook_result_to_http_status (v->result);

    respond (p->msg, status, "detail", v->text);
    event (l, status == SOUP_STATUS_SERVICE_UNAVAILABLE ? "unavailable" :
        "rejected", NULL, "%u (%s): %s", status,
        cli_webhook_result_nick (v->result), v->text);
    goto out;
  }
  delivery = gst_session_webhook_delivery_parse (body, len, l->max_body,
      v->request_id, &error);
  if (delivery == NULL) {
    respond (p->msg, SOUP_STATUS_BAD_REQUEST, "detail", error->message);
    event (l, "rejected", v->request_id, "400: signed, but not a "
        "delivery: %s", error->message);
    g_clear_error (&error);
    goto out;
  }
  headers = cli_headers_to_text (soup_server_message_get_request_headers
      (p->msg));
  switch (cli_store_insert (l->store, v->request_id, now_s (), headers,
          (const guint8 *) body, len, &error)) {
    case CLI_STORE_STORED:
      respond (p->msg, SOUP_STATUS_OK, "status", "stored");
      event (l, "stored", v->request_id, NULL);
      process_next (l);
      break;
    case CLI_STORE_DUPLICATE:
      respond (p->msg, SOUP_STATUS_OK, "status", "duplicate");
      event (l, "duplicate", v->request_id, "stored already; not "
          "processed again");
      break;
    default:
      /* not stored: the service must deliver it again */
      respond (p->msg, SOUP_STATUS_SERVICE_UNAVAILABLE, "detail",
          "the delivery could not be stored");
      event (l, "store-failed", v->request_id, "%s", error->message);
      g_clear_error (&error);
      break;
  }
  g_free (headers);
out:
  g_clear_pointer (&delivery, gst_session_webhook_delivery_free);
  g_clear_pointer (&v, gst_session_webhook_verification_free);
  soup_server_message_unpause (p->msg);
  pending_free (p);
}

static void
handler (SoupServer * server, SoupServerMessage * msg, const char *path,
    GHashTable * query, gpointer user_data)
{
  Listener *l = user_data;
  const gchar *method = soup_server_message_get_method (msg);
  GByteArray *buf;
  GInetAddress *source = NULL;
  Pending *p;

  if (g_str_equal (method, "GET") && g_str_equal (path, "/healthz")) {
    respond (msg, SOUP_STATUS_OK, "status", "ok");
    return;
  }
  if (!g_str_equal (method, "POST")) {
    soup_message_headers_replace (soup_server_message_get_response_headers
        (msg), "Allow", "POST");
    respond (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, "detail",
        "webhook deliveries are POSTed");
    return;
  }
  if (l->stopping) {
    respond (msg, SOUP_STATUS_SERVICE_UNAVAILABLE, "detail",
        "the receiver is shutting down");
    return;
  }
  buf = g_object_get_data (G_OBJECT (msg), "body");
  if (buf == NULL && g_object_get_data (G_OBJECT (msg), "busy")) {
    soup_message_headers_replace (soup_server_message_get_response_headers
        (msg), "Connection", "close");
    soup_message_headers_replace (soup_server_message_get_response_headers
        (msg), "Retry-After", "10");
    respond (msg, SOUP_STATUS_SERVICE_UNAVAILABLE, "detail",
        "too many bodies are being received at once");
    event (l, "rejected", NULL, "503: the bodies held together reached "
        "%" G_GUINT64_FORMAT " bytes", l->limits.max_buffered);
    return;
  }
  if (buf == NULL) {
    soup_message_headers_replace (soup_server_message_get_response_headers
        (msg), "Connection", "close");
    respond (msg, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE, "detail",
        "the body is larger than the limit");
    event (l, "rejected", NULL, "413: the body is over the %"
        G_GINT64_FORMAT " bytes allowed", l->max_body);
    return;
  }

  p = g_new0 (Pending, 1);
  p->l = l;
  p->msg = g_object_ref (msg);
  p->body = g_bytes_new (buf->data, buf->len);
  if (l->check_source) {
    GSocketAddress *addr = soup_server_message_get_remote_address (msg);

    if (G_IS_INET_SOCKET_ADDRESS (addr))
      source = g_inet_socket_address_get_address (G_INET_SOCKET_ADDRESS (addr));
  }
  soup_server_message_pause (msg);
  gst_session_webhook_verifier_verify_async (l->verifier,
      soup_server_message_get_request_headers (msg),
      g_bytes_get_data (p->body, NULL), g_bytes_get_size (p->body), source,
      l->cancellable, on_verified, p);
}

/* ---------------------------------------------------------------------- */
/* processing                                                             */

static gboolean
on_wake (gpointer user_data)
{
  Listener *l = user_data;

  l->wake_id = 0;
  process_next (l);
  return G_SOURCE_REMOVE;
}

static void
wake_in (Listener * l, gint64 seconds)
{
  if (l->wake_id)
    g_source_remove (l->wake_id);
  l->wake_id = g_timeout_add_seconds (CLAMP (seconds, 1, 3600), on_wake, l);
}

static void
on_processed (GObject * source, GAsyncResult * res, gpointer user_data)
{
  Listener *l = user_data;
  CliDelivery *d = g_steal_pointer (&l->current);
  GError *error = NULL;

  if (cli_processor_run_finish (l->processor, res, &error)) {
    if (cli_store_mark_processed (l->store, d->request_id, now_s (), &error))
      event (l, "processed", d->request_id, NULL);
    else
      /* processed, not recorded: it will be processed again */
      event (l, "mark-failed", d->request_id, "%s", error->message);
  } else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
    event (l, "interrupted", d->request_id, "%s; processed again at the "
        "next start", error->message);
  } else {
    guint backoff = MIN (MAX_BACKOFF, 1u << MIN (d->attempts, 16));
    GError *mark_error = NULL;

    event (l, "process-failed", d->request_id, "attempt %u: %s; retry in "
        "%u s", d->attempts + 1, error->message, backoff);
    if (!cli_store_mark_failed (l->store, d->request_id, now_s () + backoff,
            error->message, &mark_error)) {
      event (l, "mark-failed", d->request_id, "%s", mark_error->message);
      g_clear_error (&mark_error);
    }
  }
  g_clear_error (&error);
  cli_delivery_free (d);
  if (l->stopping)
    g_main_loop_quit (l->loop);
  else
    process_next (l);
}

static void
process_next (Listener * l)
{
  GError *error = NULL;
  gint64 due = 0, now = now_s ();

  if (l->current || l->stopping)
    return;
  l->current = cli_store_next_pending (l->store, now, &due, &error);
  if (error) {
    event (l, "store-failed", NULL, "%s; trying again in 5 s", error->message);
    g_clear_error (&error);
    wake_in (l, 5);
    return;
  }
  if (l->current == NULL) {
    if (due > 0)
      wake_in (l, due - now);
    return;
  }
  cli_processor_run_async (l->processor, l->current, on_processed, l);
}

static void
prune (Listener * l)
{
  GError *error = NULL;
  gint n = cli_store_prune (l->store, now_s () - l->keep_ids, &error);

  if (n < 0) {
    event (l, "store-failed", NULL, "%s", error->message);
    g_clear_error (&error);
  } else if (n > 0) {
    event (l, "pruned", NULL, "%d processed deliveries older than %"
        G_GINT64_FORMAT " s", n, l->keep_ids);
  }
}

static gboolean
on_prune (gpointer user_data)
{
  prune (user_data);
  return G_SOURCE_CONTINUE;
}

/* ---------------------------------------------------------------------- */
/* life                                                                   */

static gboolean
on_shutdown_timeout (gpointer user_data)
{
  Listener *l = user_data;

  l->shutdown_id = 0;
  g_main_loop_quit (l->loop);
  return G_SOURCE_REMOVE;
}

static gboolean
on_signal (gpointer user_data)
{
  Listener *l = user_data;

  if (l->stopping)
    return G_SOURCE_CONTINUE;
  l->stopping = TRUE;
  event (l, "stopping", NULL, NULL);
  g_cancellable_cancel (l->cancellable);
  soup_server_disconnect (l->server);
  if (l->current == NULL) {
    g_main_loop_quit (l->loop);
  } else {
    /* the delivery stays pending and is processed at the next start */
    cli_processor_interrupt (l->processor, SHUTDOWN_GRACE);
    l->shutdown_id = g_timeout_add_seconds (SHUTDOWN_GRACE + 2,
        on_shutdown_timeout, l);
  }
  return G_SOURCE_CONTINUE;
}

/* The guard closed a connection, or the listener stopped accepting: then
 * the process ends non-zero, so that a supervisor restarts it (what was
 * stored is durable), never a silent outage. */
static void
on_guard (const gchar * what, const gchar * text, gpointer user_data)
{
  Listener *l = user_data;

  event (l, what, NULL, "%s", text);
  if (g_str_equal (what, "listener-dead")) {
    l->listener_dead = TRUE;
    g_main_loop_quit (l->loop);
  }
}

static gchar *
listen_on (Listener * l, const gchar * host, gint port, GError ** error)
{
  GSocketAddress *addr;
  GSList *uris;
  gint bound = port;

  if (g_str_equal (host, "localhost"))
    host = "127.0.0.1";
  addr = g_inet_socket_address_new_from_string (host, port);
  if (addr == NULL) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "--host: \"%s\" is not an IP address", host);
    return NULL;
  }
  l->server = soup_server_new ("server-header", "gst-session/" VERSION " ",
      NULL);
  soup_server_add_early_handler (l->server, NULL, early_handler, l, NULL);
  soup_server_add_handler (l->server, NULL, handler, l, NULL);
  l->guard = cli_guard_new (l->server, &l->limits, on_guard, l);
  if (!cli_guard_listen (l->guard, addr, error)) {
    g_object_unref (addr);
    return NULL;
  }
  g_object_unref (addr);
  uris = soup_server_get_uris (l->server);
  if (uris)
    bound = g_uri_get_port (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  return g_strdup_printf (strchr (host, ':') ? "http://[%s]:%d" :
      "http://%s:%d", host, bound);
}

gint
cli_webhook_listen (CliGlobal * global, gint argc, gchar ** argv)
{
  gchar *host = NULL, *jwks_url = NULL, *api_url = NULL, *db = NULL;
  gchar *exec = NULL, *jsonl = NULL, *dir = NULL, *url = NULL;
  gchar *user_id = NULL;
  gboolean insecure_http = FALSE;
  gint max_conn = CLI_GUARD_DEFAULT_MAX_CONNECTIONS;
  gint max_per_addr = CLI_GUARD_DEFAULT_MAX_PER_ADDRESS;
  gdouble header_timeout = CLI_GUARD_DEFAULT_HEADER_TIMEOUT_MS / 1000.0;
  gdouble body_timeout = CLI_GUARD_DEFAULT_BODY_TIMEOUT_MS / 1000.0;
  gint64 max_buffered = CLI_GUARD_DEFAULT_MAX_BUFFERED;
  gint port = -1, exec_timeout = DEFAULT_EXEC_TIMEOUT;
  gint refetch_cooldown = GST_SESSION_WEBHOOK_REFETCH_COOLDOWN;
  gint64 max_body = GST_SESSION_WEBHOOK_MAX_BODY;
  gint64 keep_ids = DEFAULT_KEEP_IDS, pending;
  Listener l = { global };
  GError *error = NULL;
  gint ret = CLI_EXIT_USAGE, n_targets;
  const GOptionEntry entries[] = {
    {"port", 0, 0, G_OPTION_ARG_INT, &port,
        "TCP port to listen on (0 picks a free one)", "P"},
    {"host", 0, 0, G_OPTION_ARG_STRING, &host,
        "IP address to listen on (default 127.0.0.1)", "ADDR"},
    {"jwks-url", 0, 0, G_OPTION_ARG_STRING, &jwks_url,
        "Where the webhook key set is fetched from", "URL"},
    {"max-connections", 0, 0, G_OPTION_ARG_INT, &max_conn,
        "Most connections at once (default 256; never more than the "
          "descriptor limit allows)", "N"},
    {"max-connections-per-address", 0, 0, G_OPTION_ARG_INT, &max_per_addr,
        "Most connections at once from one address (default 64)", "N"},
    {"header-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &header_timeout,
        "Longest wait for a request's line and headers, and for the next "
          "request on an idle connection, in seconds (default 10)", "S"},
    {"body-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &body_timeout,
        "Longest pause inside a request body, in seconds (default 10)", "S"},
    {"max-buffered", 0, 0, G_OPTION_ARG_INT64, &max_buffered,
          "Most body bytes held for all requests together (default 64 MiB)",
        "BYTES"},
    {"insecure-http", 0, 0, G_OPTION_ARG_NONE, &insecure_http,
          "Allow --jwks-url and --api-url over plain http to a host that is "
          "not loopback (anyone on the path could substitute the keys)",
        NULL},
    {"user-id", 0, 0, G_OPTION_ARG_STRING, &user_id,
        "This account's user id: a delivery signed for another account is "
          "refused (403) and not stored", "ID"},
    {"api-url", 0, 0, G_OPTION_ARG_STRING, &api_url,
        "Accept deliveries only from the webhook_ip_ranges of "
          "URL/v1/meta", "URL"},
    {"db", 0, 0, G_OPTION_ARG_FILENAME, &db,
        "The SQLite database of received deliveries (created when "
          "missing)", "FILE"},
    {"exec", 0, 0, G_OPTION_ARG_STRING, &exec,
        "Process a delivery by running CMD with the body on stdin (exit 0: "
          "processed)", "CMD"},
    {"jsonl", 0, 0, G_OPTION_ARG_FILENAME, &jsonl,
        "Process a delivery by appending one JSON line to FILE", "FILE"},
    {"dir", 0, 0, G_OPTION_ARG_FILENAME, &dir,
        "Process a delivery by writing DIR/<id>.json (and .headers)", "DIR"},
    {"max-body", 0, 0, G_OPTION_ARG_INT64, &max_body,
        "Largest body accepted, in bytes (default 4 MiB)", "BYTES"},
    {"keep-ids", 0, 0, G_OPTION_ARG_INT64, &keep_ids,
        "How long processed request ids are remembered, in seconds "
          "(default 259200 = 72 h; at least 7500)", "SECONDS"},
    {"refetch-cooldown", 0, 0, G_OPTION_ARG_INT, &refetch_cooldown,
        "Shortest time between two key set fetches caused by deliveries "
          "no cached key verifies, in seconds (default 60)", "SECONDS"},
    {"exec-timeout", 0, 0, G_OPTION_ARG_INT, &exec_timeout,
        "Longest run of the --exec command, in seconds (default 600; 0: "
          "no limit)", "SECONDS"},
    {NULL}
  };

  if (!cli_parse_options (global, "webhook listen", NULL,
          "Receives webhook deliveries over HTTP, verifies each, stores "
          "the valid ones durably in SQLite before answering 2xx, and "
          "processes each stored delivery at least once (duplicates of a "
          "request id are answered 2xx and not processed again). Prints "
          "the bound URL as the first line on stdout. SIGINT or SIGTERM "
          "stops it cleanly.", entries, &argc, &argv))
      goto out;
  n_targets = !!exec + !!jsonl + !!dir;
  if (argc > 1)
    ret = cli_fail (global, CLI_EXIT_USAGE, "unexpected argument \"%s\"",
        argv[1]);
  else if (port < 0 || port > 65535)
    ret = cli_fail (global, CLI_EXIT_USAGE, "--port is needed (0 to 65535)");
  else if (!gst_session_webhook_url_allowed (jwks_url, insecure_http, &error))
    ret = cli_fail (global, CLI_EXIT_USAGE, "--jwks-url: %s", error->message);
  else if (api_url && !gst_session_webhook_url_allowed (api_url,
          insecure_http, &error))
    ret = cli_fail (global, CLI_EXIT_USAGE, "--api-url: %s", error->message);
  else if (db == NULL)
    ret = cli_fail (global, CLI_EXIT_USAGE, "--db is needed");
  else if (n_targets != 1)
    ret = cli_fail (global, CLI_EXIT_USAGE, "one of --exec, --jsonl or --dir "
        "is needed");
  else if (max_body < 1 || max_body > G_MAXUINT)
    ret = cli_fail (global, CLI_EXIT_USAGE, "--max-body must be 1 to %u",
        G_MAXUINT);
  else if (keep_ids < MIN_KEEP_IDS)
    ret = cli_fail (global, CLI_EXIT_USAGE, "--keep-ids must be at least %d "
        "s (2 hours of retries plus the 300 s leeway)", MIN_KEEP_IDS);
  else if (refetch_cooldown < 0)
    ret = cli_fail (global, CLI_EXIT_USAGE, "--refetch-cooldown cannot be "
        "negative");
  else if (exec_timeout < 0)
    ret = cli_fail (global, CLI_EXIT_USAGE, "--exec-timeout cannot be "
        "negative");
  else if (max_conn < 1 || max_per_addr < 1)
    ret = cli_fail (global, CLI_EXIT_USAGE, "--max-connections and "
        "--max-connections-per-address must be at least 1");
  else if (!(header_timeout >= 0.1 && header_timeout <= 3600) ||
      !(body_timeout >= 0.1 && body_timeout <= 3600))
    ret = cli_fail (global, CLI_EXIT_USAGE, "--header-timeout and "
        "--body-timeout must be 0.1 to 3600 s");
  else if (max_buffered < max_body)
    ret = cli_fail (global, CLI_EXIT_USAGE, "--max-buffered must be at "
        "least --max-body");
  else
    ret = CLI_EXIT_OK;
  if (ret != CLI_EXIT_OK)
    goto out;

  /* a full file system or a file size limit makes a write fail (EFBIG),
   * answered 503, instead of killing the receiver */
  signal (SIGXFSZ, SIG_IGN);
  l.max_body = max_body;
  l.keep_ids = keep_ids;
  l.limits.max_connections = max_conn;
  l.limits.max_per_address = max_per_addr;
  l.limits.header_timeout_ms = (guint) (header_timeout * 1000);
  l.limits.body_timeout_ms = (guint) (body_timeout * 1000);
  l.limits.max_buffered = max_buffered;
  l.user_id = user_id;
  if (user_id == NULL || user_id[0] == '\0') {
    l.user_id = NULL;
    g_printerr ("gst-session webhook listen: warning: no --user-id: a "
        "delivery validly signed for any account of the service is "
        "accepted\n");
  }
  l.processor = cli_processor_new (exec ? CLI_PROCESS_EXEC : jsonl ?
      CLI_PROCESS_JSONL : CLI_PROCESS_DIR, exec ? exec : jsonl ? jsonl : dir,
      exec_timeout, &error);
  if (l.processor == NULL) {
    ret = cli_fail (global, g_error_matches (error, G_IO_ERROR,
            G_IO_ERROR_INVALID_ARGUMENT) ? CLI_EXIT_USAGE :
        CLI_EXIT_INTERNAL, "%s", error->message);
    goto out;
  }
  l.store = cli_store_open (db, TRUE, &error);
  if (l.store == NULL) {
    ret = cli_fail (global, CLI_EXIT_INTERNAL, "%s: %s", db, error->message);
    goto out;
  }
  l.verifier = gst_session_webhook_verifier_new (jwks_url);
  g_object_set (l.verifier, "max-body-size", (guint) max_body,
      "refetch-cooldown", (guint) refetch_cooldown, "allow-insecure-http",
      insecure_http, NULL);
  if (api_url) {
    g_object_set (l.verifier, "api-url", api_url, NULL);
    l.check_source = TRUE;
  }
  if (global->timeout_ms >= 0)
    g_object_set (l.verifier, "timeout", (guint) global->timeout_ms, NULL);
  l.cancellable = g_cancellable_new ();
  l.loop = g_main_loop_new (NULL, FALSE);

  url = listen_on (&l, host ? host : "127.0.0.1", port, &error);
  if (url == NULL) {
    ret = cli_fail (global, g_error_matches (error, G_IO_ERROR,
            G_IO_ERROR_INVALID_ARGUMENT) ? CLI_EXIT_USAGE :
        CLI_EXIT_INTERNAL, "%s", error->message);
    goto out;
  }
  if (global->json) {
    JsonObject * o = json_object_new ();
    JsonNode *node = json_node_new (JSON_NODE_OBJECT);

    json_object_set_string_member (o, "event", "listening");
    json_object_set_string_member (o, "url", url);
    json_node_take_object (node, o);
    cli_print_json (node);
    json_node_unref (node);
  } else {
    g_print ("%s\n", url);
    fflush (stdout);
  }

  l.sigint_id = g_unix_signal_add (SIGINT, on_signal, &l);
  l.sigterm_id = g_unix_signal_add (SIGTERM, on_signal, &l);
  prune (&l);
  l.prune_id = g_timeout_add_seconds (MIN (keep_ids / 4, 3600), on_prune, &l);
  pending = cli_store_count (l.store, TRUE, NULL);
  if (pending > 0)
    event (&l, "recovering", NULL, "%" G_GINT64_FORMAT " stored deliveries "
        "not processed yet", pending);
  process_next (&l);

  g_main_loop_run (l.loop);
  if (l.listener_dead) {
    ret = cli_fail (global, CLI_EXIT_INTERNAL, "the listener stopped "
        "accepting connections; exiting so that it can be restarted");
    goto out;
  }
  event (&l, "stopped", NULL, NULL);
  ret = CLI_EXIT_OK;

out:
  if (l.sigint_id)
    g_source_remove (l.sigint_id);
  if (l.sigterm_id)
    g_source_remove (l.sigterm_id);
  if (l.wake_id)
    g_source_remove (l.wake_id);
  if (l.prune_id)
    g_source_remove (l.prune_id);
  if (l.shutdown_id)
    g_source_remove (l.shutdown_id);
  g_clear_pointer (&l.current, cli_delivery_free);
  if (l.server) {
    soup_server_disconnect (l.server);
    g_object_unref (l.server);
  }
  cli_guard_free (l.guard);
  g_clear_object (&l.cancellable);
  if (l.verifier)
    gst_object_unref (l.verifier);
  cli_processor_free (l.processor);
  cli_store_close (l.store);
  g_clear_pointer (&l.loop, g_main_loop_unref);
  g_free (url);
  g_free (host);
  g_free (jwks_url);
  g_free (api_url);
  g_free (db);
  g_free (exec);
  g_free (jsonl);
  g_free (dir);
  g_free (user_id);
  return ret;
}
