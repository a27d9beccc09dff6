/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Plain HTTP requests to the reference service, by libsoup, each on a
 * session of its own: the status, the body, its JSON and the error headers
 * of the answer.
 */

#include <string.h>

#include "svc-http.h"

/* ---------------------------------------------------------------- *
 * plain HTTP
 * ---------------------------------------------------------------- */

SvcHttpReply *
svc_http_reply_new (SoupMessage * msg, const gchar * data, gsize size)
{
  SvcHttpReply *r = g_new0 (SvcHttpReply, 1);
  SoupMessageHeaders *h = soup_message_get_response_headers (msg);
  JsonParser *parser = json_parser_new ();

  r->status = soup_message_get_status (msg);
  r->body = g_strndup (data ? data : "", size);
  r->content_type = g_strdup (soup_message_headers_get_content_type (h, NULL));
  r->error_type = g_strdup (soup_message_headers_get_one (h,
          "X-Svc-Error-Type"));
  r->retryable = g_strdup (soup_message_headers_get_one (h, "X-Svc-Retryable"));
  if (size && json_parser_load_from_data (parser, r->body, -1, NULL))
    r->json = json_node_copy (json_parser_get_root (parser));
  g_object_unref (parser);
  return r;
}

SvcHttpReply *
svc_http (const gchar * method, const gchar * url, const gchar * body,
    const gchar * key)
{
  SoupSession *session = soup_session_new ();
  SoupMessage *msg = soup_message_new (method, url);
  GBytes *bytes;
  GError *error = NULL;
  SvcHttpReply *reply;
  gsize size;
  const gchar *data;

  g_assert (msg != NULL);
  if (key) {
    gchar *auth = g_strdup_printf ("Key %s", key);

    soup_message_headers_replace (soup_message_get_request_headers (msg),
        "Authorization", auth);
    g_free (auth);
  }
  if (body) {
    GBytes *b = g_bytes_new (body, strlen (body));

    soup_message_set_request_body_from_bytes (msg, "application/json", b);
    g_bytes_unref (b);
  }
  bytes = soup_session_send_and_read (session, msg, NULL, &error);
  g_assert_no_error (error);
  data = g_bytes_get_data (bytes, &size);
  reply = svc_http_reply_new (msg, data, size);
  g_bytes_unref (bytes);
  g_object_unref (msg);
  g_object_unref (session);
  return reply;
}

void
svc_http_reply_free (SvcHttpReply * r)
{
  if (!r)
    return;
  g_free (r->body);
  g_free (r->content_type);
  g_free (r->error_type);
  g_free (r->retryable);
  if (r->json)
    json_node_unref (r->json);
  g_free (r);
}

/* The app_state of session @id from GET /admin/sessions (a new reference),
 * or NULL */
JsonObject *
svc_admin_session (const gchar * base_url, const gchar * id)
{
  gchar *url = g_strdup_printf ("%s/admin/sessions", base_url);
  SvcHttpReply *r = svc_http ("GET", url, NULL, NULL);
  JsonObject *found = NULL;
  JsonArray *sessions;
  guint i;

  g_free (url);
  g_assert_cmpuint (r->status, ==, 200);
  sessions = json_object_get_array_member (json_node_get_object (r->json),
      "sessions");
  for (i = 0; i < json_array_get_length (sessions); i++) {
    JsonObject *s = json_array_get_object_element (sessions, i);

    if (g_strcmp0 (json_object_get_string_member (s, "session_id"), id) == 0
        && json_object_has_member (s, "app_state"))
      found = json_object_ref (json_object_get_object_member (s, "app_state"));
  }
  svc_http_reply_free (r);
  return found;
}
