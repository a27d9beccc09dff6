/* gst-session-service: the HTTP endpoints and the registry of sessions
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 *   POST /world/start-session, POST /director/start-session
 *   GET  /healthz
 *   GET|POST|DELETE /admin/faults, GET /admin/sessions (loopback peers only)
 *   the platform side of spec 001 (queue, webhooks, management): routes.c
 *
 * Errors are request-level bodies of spec 001 ({"detail", "error_type"}
 * with X-Svc-Error-Type), or model-level ones for injected model faults.
 * Everything runs on the main thread.
 */

#include <string.h>
#include <json-glib/json-glib.h>

#include "http.h"
#include "respond.h"
#include "session.h"
#include "faults.h"
#include "routes.h"

struct _SvcService
{
  SvcConfig *config;
  SoupServer *server;
  gchar *base_url;
  SvcContext ctx;               /* what the platform modules have of it */
  GPtrArray *rules;             /* SvcFaultRule, for sessions to come */
  GList *sessions;              /* a reference each, while the session is
                                 * open or its response is */
  gboolean shutting_down;
  SvcPlatform *platform;        /* queue, webhooks, management */
};

gchar *
svc_service_get_base_url (SvcService * service)
{
  return g_strdup (service->base_url);
}

static JsonNode *
parse_body (SoupServerMessage * msg, GError ** error)
{
  SoupMessageBody *body = soup_server_message_get_request_body (msg);
  GBytes *bytes = soup_message_body_flatten (body);
  gsize size;
  const gchar *data = g_bytes_get_data (bytes, &size);
  JsonNode *root = NULL;

  /* the library's one JSON gate before json-glib sees the text */
  if (size == 0)
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON,
        "the body is empty");
  else
    root = gst_session_json_parse (data, size, GST_SESSION_MESSAGE_MAX_SIZE,
        GST_SESSION_MESSAGE_MAX_DEPTH, error);
  g_bytes_unref (bytes);
  return root;
}

/* ---------------------------------------------------------------- *
 * the registry
 * ---------------------------------------------------------------- */

static guint
count_sessions (SvcService * service, GstSessionApp app)
{
  GList *l;
  guint n = 0;

  for (l = service->sessions; l; l = l->next)
    if (svc_session_get_app (l->data) == app &&
        svc_session_get_state (l->data) != SVC_SESSION_CLOSED)
      n++;
  return n;
}

static SvcSession *
find_session (SvcService * service, const gchar * id)
{
  GList *l;

  for (l = service->sessions; l; l = l->next)
    if (svc_session_get_state (l->data) != SVC_SESSION_CLOSED &&
        g_strcmp0 (svc_session_get_id (l->data), id) == 0)
      return l->data;
  return NULL;
}

/* Every runner of @app busy: closes the sessions whose client closed
 * its event stream already, the main loop not having got to it yet (a
 * renewal ends its session, then posts the next start at once). */
static void
reap_gone_clients (SvcService * service, GstSessionApp app)
{
  /* closing one makes the registry forget it: a reference each meanwhile */
  GList *copy = g_list_copy (service->sessions), *l;

  for (l = copy; l; l = l->next)
    svc_session_ref (l->data);
  for (l = copy; l; l = l->next)
    if (svc_session_get_app (l->data) == app)
      svc_session_poll_client (l->data);
  g_list_free_full (copy, (GDestroyNotify) svc_session_unref);
}

/* A session closed or its response finished: forget it once both. */
static void
session_changed (SvcSession * session, gpointer user_data)
{
  SvcService *service = user_data;
  GList *l = g_list_find (service->sessions, session);

  if (!l || svc_session_get_state (session) != SVC_SESSION_CLOSED ||
      svc_session_has_response (session))
    return;
  service->sessions = g_list_delete_link (service->sessions, l);
  svc_session_unref (session);
}

/* The faults of the rules matching a new session; uses them up. */
static SvcFaults *
take_faults (SvcService * service, GstSessionApp app, const gchar * id)
{
  SvcFaults *faults = svc_faults_new ();
  guint i;

  for (i = 0; i < service->rules->len;) {
    SvcFaultRule *rule = g_ptr_array_index (service->rules, i);

    if ((rule->app < 0 || rule->app == (gint) app) &&
        (!rule->session_id || g_str_equal (rule->session_id, id))) {
      svc_faults_merge (faults, rule->faults);
      if (rule->remaining > 0 && --rule->remaining == 0) {
        g_ptr_array_remove_index (service->rules, i);
        continue;
      }
    }
    i++;
  }
  return faults;
}

/* ---------------------------------------------------------------- *
 * start-session
 * ---------------------------------------------------------------- */

static const gchar *
member_string (JsonObject * obj, const gchar * name)
{
  JsonNode *node = json_object_get_member (obj, name);

  if (!node || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static void
refuse (SvcService * service, SoupServerMessage * msg, SvcFaults * faults)
{
  guint status;
  gchar *body, *type;
  gint retryable;
  gboolean request_level;
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);

  svc_faults_refusal (faults, service->base_url, &status, &body, &type,
      &retryable, &request_level);
  GST_INFO ("refusing a start with %s (fault)", type);
  if (request_level)
    soup_message_headers_replace (headers, "X-Svc-Error-Type", type);
  if (retryable >= 0)
    soup_message_headers_replace (headers, "X-Svc-Retryable",
        retryable ? "true" : "false");
  svc_respond_json (msg, status, body);
  g_free (type);
}

static void
start_session (SvcService * service, SoupServerMessage * msg, GstSessionApp app)
{
  GError *error = NULL;
  JsonNode *root;
  JsonObject *obj;
  const gchar *sdp, *type, *id;
  SvcFaults *faults;
  SvcSession *session;

  if (g_strcmp0 (soup_server_message_get_method (msg), "POST") != 0) {
    svc_respond_request_error (msg, 405, "bad_request",
        "start-session takes POST");
    return;
  }
  if (!svc_check_auth (service->config, msg))
    return;
  if (service->shutting_down) {
    svc_respond_request_error (msg, 503, "runner_scheduling_failure",
        "the service is shutting down");
    return;
  }

  root = parse_body (msg, &error);
  if (!root) {
    gchar *detail = g_strdup_printf ("the body is not JSON: %s",
        error->message);

    svc_respond_request_error (msg, 400, "bad_request", detail);
    g_free (detail);
    g_clear_error (&error);
    return;
  }
  if (!JSON_NODE_HOLDS_OBJECT (root)) {
    svc_respond_request_error (msg, 400, "bad_request",
        "the body must be a JSON object");
    json_node_unref (root);
    return;
  }
  obj = json_node_get_object (root);
  sdp = member_string (obj, "sdp");
  type = member_string (obj, "type");
  id = member_string (obj, "session_id");
  if (!sdp || !sdp[0] || g_strcmp0 (type, "offer") != 0 || !id ||
      !g_uuid_string_is_valid (id)) {
    svc_respond_request_error (msg, 400, "bad_request",
        !sdp || !sdp[0] ? "'sdp' must be a non-empty string" :
        g_strcmp0 (type, "offer") != 0 ? "'type' must be \"offer\"" :
        "'session_id' must be a UUID string");
    json_node_unref (root);
    return;
  }
  if (find_session (service, id)) {
    svc_respond_request_error (msg, 400, "bad_request",
        "a session with this session_id is running");
    json_node_unref (root);
    return;
  }
  if (count_sessions (service, app) >= service->config->runners)
    reap_gone_clients (service, app);
  if (count_sessions (service, app) >= service->config->runners) {
    GST_INFO ("no runner free for a %s session", gst_session_app_get_name
        (app));
    svc_respond_request_error (msg, 503, "runner_scheduling_failure",
        "every runner of this app is busy");
    json_node_unref (root);
    return;
  }

  faults = take_faults (service, app, id);
  if (faults->refuse_type) {
    refuse (service, msg, faults);
    svc_faults_free (faults);
    json_node_unref (root);
    return;
  }

  session = svc_session_new (service->config, session_changed, service, app,
      app == GST_SESSION_APP_WORLD ? &svc_world_class : &svc_director_class,
      id, msg, faults);
  service->sessions = g_list_append (service->sessions, session);
  GST_INFO ("session %s: starting a %s session", id,
      gst_session_app_get_name (app));
  if (!svc_session_start (session, sdp, &error)) {
    gboolean offer_error = error->domain == GST_SESSION_ERROR;

    GST_WARNING ("session %s: cannot start: %s", id, error->message);
    svc_session_respond_error (session, offer_error ? 400 : 500,
        offer_error ? "bad_request" : "runner_server_error", error->message);
    svc_session_close (session, SVC_CLOSE_FAILED);
    g_clear_error (&error);
  }
  json_node_unref (root);
}

/* ---------------------------------------------------------------- *
 * other endpoints
 * ---------------------------------------------------------------- */

static void
healthz (SvcService * service, SoupServerMessage * msg)
{
  JsonBuilder *b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "status");
  json_builder_add_string_value (b, service->shutting_down ? "stopping" : "ok");
  json_builder_set_member_name (b, "version");
  json_builder_add_string_value (b, PACKAGE_VERSION);
  json_builder_set_member_name (b, "runners");
  json_builder_add_int_value (b, service->config->runners);
  json_builder_set_member_name (b, "sessions");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "world");
  json_builder_add_int_value (b, count_sessions (service,
          GST_SESSION_APP_WORLD));
  json_builder_set_member_name (b, "director");
  json_builder_add_int_value (b, count_sessions (service,
          GST_SESSION_APP_DIRECTOR));
  json_builder_end_object (b);
  json_builder_set_member_name (b, "media");
  json_builder_add_string_value (b, service->config->media_cached ? "cached" :
      "live");
  json_builder_set_member_name (b, "video_codec");
  json_builder_add_string_value (b,
      service->config->video_codec == SVC_CODEC_H264 ? "h264" : "vp8");
  json_builder_end_object (b);
  svc_respond_json (msg, 200, svc_json_builder_finish (b));
}

static void
admin_faults (SvcService * service, SoupServerMessage * msg)
{
  const gchar *method = soup_server_message_get_method (msg);
  JsonBuilder *b = json_builder_new ();
  guint i;

  if (g_str_equal (method, "GET")) {
    json_builder_begin_object (b);
    json_builder_set_member_name (b, "rules");
    json_builder_begin_array (b);
    for (i = 0; i < service->rules->len; i++)
      svc_fault_rule_to_json (g_ptr_array_index (service->rules, i), b);
    json_builder_end_array (b);
    json_builder_end_object (b);
  } else if (g_str_equal (method, "DELETE")) {
    json_builder_begin_object (b);
    json_builder_set_member_name (b, "cleared");
    json_builder_add_int_value (b, service->rules->len);
    json_builder_end_object (b);
    g_ptr_array_set_size (service->rules, 0);
  } else if (g_str_equal (method, "POST")) {
    GError *error = NULL;
    JsonNode *root = parse_body (msg, &error);
    GPtrArray *rules = g_ptr_array_new_with_free_func ((GDestroyNotify)
        svc_fault_rule_free);
    guint stored = 0, applied = 0;

    if (root && JSON_NODE_HOLDS_ARRAY (root)) {
      JsonArray *array = json_node_get_array (root);

      for (i = 0; i < json_array_get_length (array) && !error; i++) {
        SvcFaultRule *rule = svc_fault_rule_from_json
            (json_array_get_element (array, i), &error);
        if (rule)
          g_ptr_array_add (rules, rule);
      }
    } else if (root) {
      SvcFaultRule *rule = svc_fault_rule_from_json (root, &error);
      if (rule)
        g_ptr_array_add (rules, rule);
    }
    if (root)
      json_node_unref (root);
    if (error) {
      svc_respond_request_error (msg, 400, "bad_request", error->message);
      g_error_free (error);
      g_ptr_array_unref (rules);
      g_object_unref (b);
      return;
    }
    for (i = 0; i < rules->len; i++) {
      SvcFaultRule *rule = g_ptr_array_index (rules, i);
      SvcSession *live = rule->session_id ?
          find_session (service, rule->session_id) : NULL;

      if (live) {
        svc_session_apply_faults (live, rule->faults);
        applied++;
      } else {
        g_ptr_array_add (service->rules, rule);
        rules->pdata[i] = NULL;
        stored++;
      }
    }
    g_ptr_array_unref (rules);
    json_builder_begin_object (b);
    json_builder_set_member_name (b, "stored");
    json_builder_add_int_value (b, stored);
    json_builder_set_member_name (b, "applied");
    json_builder_add_int_value (b, applied);
    json_builder_end_object (b);
  } else {
    g_object_unref (b);
    svc_respond_request_error (msg, 405, "bad_request",
        "/admin/faults takes GET, POST or DELETE");
    return;
  }
  svc_respond_json (msg, 200, svc_json_builder_finish (b));
}

static void
admin_sessions (SvcService * service, SoupServerMessage * msg)
{
  JsonBuilder *b = json_builder_new ();
  GList *l;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "sessions");
  json_builder_begin_array (b);
  for (l = service->sessions; l; l = l->next)
    svc_session_describe (l->data, b);
  json_builder_end_array (b);
  json_builder_end_object (b);
  svc_respond_json (msg, 200, svc_json_builder_finish (b));
}

/* Answers 413 at once and closes, without reading the body (libsoup would
 * read and hold a whole declared body before any answer). */
static void
refuse_large_and_close (SoupServerMessage * msg)
{
  GIOStream *stream = soup_server_message_steal_connection (msg);
  static const gchar body[] =
      "{\"detail\":\"the body is too large\",\"error_type\":\"bad_request\"}";
  gchar *answer;

  if (stream == NULL)
    return;
  answer = g_strdup_printf ("HTTP/1.1 413 Request Entity Too Large\r\n"
      "Content-Type: application/json\r\nContent-Length: %" G_GSIZE_FORMAT
      "\r\nX-Svc-Error-Type: bad_request\r\nConnection: close\r\n\r\n%s",
      strlen (body), body);
  g_output_stream_write_all (g_io_stream_get_output_stream (stream), answer,
      strlen (answer), NULL, NULL, NULL);
  g_io_stream_close (stream, NULL, NULL);
  g_object_unref (stream);
  g_free (answer);
}

/* a chunked body counted as it arrives: past the limit what came is
 * dropped (memory stays bounded) and the answer is 413 */
static void
on_body_chunk (SoupServerMessage * msg, GBytes * chunk, gpointer data)
{
  guint64 total = GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (msg),
          "svc-body-bytes")) + g_bytes_get_size (chunk);

  g_object_set_data (G_OBJECT (msg), "svc-body-bytes",
      GSIZE_TO_POINTER ((gsize) MIN (total, G_MAXSIZE)));
  if (total > SVC_MAX_BODY)
    soup_message_body_truncate (soup_server_message_get_request_body (msg));
}

static void
early_body_check (SoupServer * server, SoupServerMessage * msg,
    const char *path, GHashTable * query, gpointer user_data)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);

  if (soup_message_headers_get_encoding (headers) ==
      SOUP_ENCODING_CONTENT_LENGTH &&
      soup_message_headers_get_content_length (headers) > SVC_MAX_BODY) {
    GST_INFO ("refusing a body of %" G_GINT64_FORMAT " bytes",
        soup_message_headers_get_content_length (headers));
    refuse_large_and_close (msg);
    return;
  }
  g_signal_connect (msg, "got-chunk", G_CALLBACK (on_body_chunk), NULL);
}

static void
handle_request (SoupServer * server, SoupServerMessage * msg,
    const char *path, GHashTable * query, gpointer user_data)
{
  SvcService *service = user_data;

  GST_DEBUG ("%s %s", soup_server_message_get_method (msg), path);
  if (GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (msg),
              "svc-body-bytes")) > SVC_MAX_BODY) {
    soup_message_headers_replace (soup_server_message_get_response_headers
        (msg), "Connection", "close");
    svc_respond_request_error (msg, 413, "bad_request",
        "the body is too large");
    return;
  }
  if (g_str_equal (path, "/world/start-session")) {
    start_session (service, msg, GST_SESSION_APP_WORLD);
  } else if (g_str_equal (path, "/director/start-session")) {
    start_session (service, msg, GST_SESSION_APP_DIRECTOR);
  } else if (g_str_equal (path, "/healthz")) {
    healthz (service, msg);
  } else if (g_str_has_prefix (path, "/admin/")) {
    if (!svc_is_loopback_peer (msg)) {
      svc_respond_request_error (msg, 403, "bad_request",
          "the admin endpoints answer loopback peers only");
    } else if (svc_check_auth (service->config, msg)) {
      if (g_str_equal (path, "/admin/faults"))
        admin_faults (service, msg);
      else if (g_str_equal (path, "/admin/sessions"))
        admin_sessions (service, msg);
      else if (!svc_platform_handle_admin (service->platform, msg, path))
        svc_respond_request_error (msg, 404, "bad_request", "no such endpoint");
    }
  } else if (!svc_platform_handle (service->platform, msg, path, query)) {
    svc_respond_request_error (msg, 404, "bad_request", "no such endpoint");
  }
}

/* ---------------------------------------------------------------- *
 * life
 * ---------------------------------------------------------------- */

/* Every answer closes its connection. libsoup 3.2's SoupServer never
 * notices that a client closed a kept-alive connection while it was idle
 * (between two requests): the message that would read the next request
 * ends without telling the server, so the connection stayed in CLOSE-WAIT
 * for good, a descriptor per request or session (issue 28; libsoup 3.3
 * fixed it). With `Connection: close` on the answer the server closes the
 * connection itself once the answer is written, the event stream of a
 * session when the session ends. What it costs: a client opens a
 * connection per request (sessions open one each anyway). */
static void
on_request_started (SoupServer * server, SoupServerMessage * msg,
    gpointer user_data)
{
  soup_message_headers_replace (soup_server_message_get_response_headers
      (msg), "Connection", "close");
}

SvcService *
svc_service_new (SvcConfig * config, GPtrArray * rules, GError ** error)
{
  SvcService *service = g_new0 (SvcService, 1);
  const gchar *host = g_str_equal (config->host, "localhost") ? "127.0.0.1" :
      config->host;
  GSocketAddress *addr;
  GInetAddress *inet;
  GSList *uris;
  gint port = 0;

  service->config = config;
  service->rules = rules;
  service->server = soup_server_new ("server-header", "gst-session-service/"
      PACKAGE_VERSION " ", NULL);
  g_signal_connect (service->server, "request-started",
      G_CALLBACK (on_request_started), NULL);
  soup_server_add_early_handler (service->server, NULL, early_body_check,
      service, NULL);
  soup_server_add_handler (service->server, NULL, handle_request, service,
      NULL);

  addr = g_inet_socket_address_new_from_string (host, config->port);
  if (!addr) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "'%s' is not an IP address", config->host);
    svc_service_free (service);
    return NULL;
  }
  inet = g_inet_socket_address_get_address (G_INET_SOCKET_ADDRESS (addr));
  config->loopback = g_inet_address_get_is_loopback (inet);
  if (!soup_server_listen (service->server, addr, 0, error)) {
    g_object_unref (addr);
    svc_service_free (service);
    return NULL;
  }
  g_object_unref (addr);

  uris = soup_server_get_uris (service->server);
  if (uris) {
    port = g_uri_get_port (uris->data);
    g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  }
  service->base_url = g_strdup_printf (strchr (host, ':') ?
      "http://[%s]:%d" : "http://%s:%d", host, port);
  service->ctx.config = service->config;
  service->ctx.base_url = service->base_url;
  service->platform = svc_platform_new (&service->ctx, error);
  if (!service->platform) {
    svc_service_free (service);
    return NULL;
  }
  return service;
}

/* Closes every session; the responses end. Run the main loop until
 * svc_service_is_idle() to let them leave. */
void
svc_service_shutdown (SvcService * service)
{
  GList *copy, *l;

  service->shutting_down = TRUE;
  copy = g_list_copy (service->sessions);
  for (l = copy; l; l = l->next)
    svc_session_ref (l->data);
  for (l = copy; l; l = l->next)
    svc_session_shutdown (l->data);
  g_list_free_full (copy, (GDestroyNotify) svc_session_unref);
}

gboolean
svc_service_is_idle (SvcService * service)
{
  return service->sessions == NULL;
}

void
svc_service_free (SvcService * service)
{
  if (service->server) {
    soup_server_disconnect (service->server);
    g_object_unref (service->server);
  }
  g_list_free_full (service->sessions, (GDestroyNotify) svc_session_unref);
  g_clear_pointer (&service->platform, svc_platform_free);
  if (service->rules)
    g_ptr_array_unref (service->rules);
  g_free (service->base_url);
  g_free (service);
}
