/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gst-session webhook verify: checks one captured delivery offline.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "cli.h"

#define MAX_HEADERS_FILE (1024 * 1024)

static gint64
fixed_clock (gpointer user_data)
{
  return *(gint64 *) user_data;
}

const gchar *
cli_webhook_result_nick (GstSessionWebhookResult result)
{
  GEnumClass *klass = g_type_class_ref (GST_SESSION_TYPE_WEBHOOK_RESULT);
  GEnumValue *value = g_enum_get_value (klass, result);
  const gchar *nick = value ? value->value_nick : "unknown";

  g_type_class_unref (klass);
  return nick;
}

static gboolean
read_file (const gchar * path, const gchar * what, gsize max, gchar ** data,
    gsize * length, GError ** error)
{
  GError *err = NULL;

  if (!g_file_get_contents (path, data, length, &err)) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot read the %s "
        "file: %s", what, err->message);
    g_clear_error (&err);
    return FALSE;
  }
  if (max && *length > max) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the %s file is "
        "larger than %" G_GSIZE_FORMAT " bytes", what, max);
    g_clear_pointer (data, g_free);
    return FALSE;
  }
  return TRUE;
}

static gint
report (const CliGlobal * global, GstSessionWebhookVerification * v,
    GstSessionWebhookDelivery * delivery, const gchar * delivery_error)
{
  gboolean valid = v->result == GST_SESSION_WEBHOOK_RESULT_VALID &&
      delivery != NULL;
  const gchar *nick = delivery_error ? "invalid-delivery" :
      cli_webhook_result_nick (v->result);

  if (global->json) {
    JsonObject * o = json_object_new ();
    JsonNode *node = json_node_new (JSON_NODE_OBJECT);

    json_object_set_boolean_member (o, "valid", valid);
    json_object_set_string_member (o, "result", nick);
    json_object_set_string_member (o, "reason", delivery_error ?
        delivery_error : v->text);
    if (v->header)
      json_object_set_string_member (o, "header", v->header);
    json_object_set_int_member (o, "skew", v->skew);
    if (v->result == GST_SESSION_WEBHOOK_RESULT_VALID) {
      json_object_set_string_member (o, "request_id", v->request_id);
      json_object_set_string_member (o, "user_id", v->user_id);
      json_object_set_int_member (o, "timestamp", v->timestamp);
      json_object_set_int_member (o, "key_index", v->key_index);
    }
    if (delivery) {
      json_object_set_string_member (o, "gateway_request_id",
          delivery->gateway_request_id);
      json_object_set_string_member (o, "status", delivery->status ==
          GST_SESSION_WEBHOOK_STATUS_OK ? "OK" : "ERROR");
    }
    json_node_take_object (node, o);
    cli_print_json (node);
    json_node_unref (node);
  } else if (valid) {
    g_print ("VALID (request_id %s, status %s, key %d)\n", v->request_id,
        delivery->status == GST_SESSION_WEBHOOK_STATUS_OK ? "OK" : "ERROR",
        v->key_index);
  } else {
    g_print ("INVALID (%s): %s\n", nick, delivery_error ? delivery_error :
        v->text);
  }
  return valid ? CLI_EXIT_OK : CLI_EXIT_INVALID;
}

gint
cli_webhook_verify (CliGlobal * global, gint argc, gchar ** argv)
{
  gchar *headers_path = NULL, *body_path = NULL, *jwks_path = NULL;
  gchar *jwks_url = NULL, *headers_text = NULL, *body = NULL;
  gchar *jwks_text = NULL, *delivery_error = NULL, *user_id = NULL;
  gboolean insecure_http = FALSE;
  gint64 now = 0;
  gint leeway = GST_SESSION_WEBHOOK_LEEWAY;
  gsize headers_len = 0, body_len = 0, jwks_len = 0;
  SoupMessageHeaders *headers = NULL;
  GstSessionWebhookKeySet *keys = NULL;
  GstSessionWebhookVerification *v = NULL;
  GstSessionWebhookDelivery *delivery = NULL;
  GError *error = NULL;
  gint ret = CLI_EXIT_USAGE;
  const GOptionEntry entries[] = {
    {"headers", 0, 0, G_OPTION_ARG_FILENAME, &headers_path,
        "The request headers: \"Name: value\" lines (a request line first "
          "is skipped) or a JSON object", "FILE"},
    {"body", 0, 0, G_OPTION_ARG_FILENAME, &body_path,
        "The raw request body, byte for byte", "FILE"},
    {"jwks", 0, 0, G_OPTION_ARG_FILENAME, &jwks_path,
        "The key set (JWKS) as a file", "FILE"},
    {"jwks-url", 0, 0, G_OPTION_ARG_STRING, &jwks_url,
        "Fetch the key set from this URL", "URL"},
    {"insecure-http", 0, 0, G_OPTION_ARG_NONE, &insecure_http,
          "Allow --jwks-url over plain http to a host that is not loopback",
        NULL},
    {"user-id", 0, 0, G_OPTION_ARG_STRING, &user_id,
        "This account's user id: a delivery signed for another account is "
          "not valid", "ID"},
    {"now", 0, 0, G_OPTION_ARG_INT64, &now,
          "Check the timestamp against this Unix time instead of the clock",
        "UNIX"},
    {"leeway", 0, 0, G_OPTION_ARG_INT, &leeway,
        "Allowed clock difference in seconds (default 300, as spec 001 "
          "says)", "S"},
    {NULL}
  };

  if (!cli_parse_options (global, "webhook verify", NULL,
          "Checks one captured webhook delivery as spec 001 says: the four "
          "X-Svc-Webhook-* headers, the timestamp within the leeway, and the "
          "Ed25519 signature over the raw body. Prints VALID or the reason; "
          "exits 0 when valid, 1 when not.", entries, &argc, &argv))
      goto out;
  if (argc > 1) {
    ret = cli_fail (global, CLI_EXIT_USAGE, "unexpected argument \"%s\"",
        argv[1]);
    goto out;
  }
  if (!headers_path || !body_path || (!jwks_path == !jwks_url)) {
    ret = cli_fail (global, CLI_EXIT_USAGE, "webhook verify needs --headers, "
        "--body and one of --jwks or --jwks-url");
    goto out;
  }
  if (jwks_url && !gst_session_webhook_url_allowed (jwks_url, insecure_http,
          &error)) {
    ret = cli_fail (global, CLI_EXIT_USAGE, "--jwks-url: %s", error->message);
    goto out;
  }
  if (leeway < 0) {
    ret = cli_fail (global, CLI_EXIT_USAGE, "--leeway cannot be negative");
    goto out;
  }
  if (!read_file (headers_path, "headers", MAX_HEADERS_FILE, &headers_text,
          &headers_len, &error) ||
      !read_file (body_path, "body", 0, &body, &body_len, &error) ||
      (jwks_path && !read_file (jwks_path, "key set", 0, &jwks_text,
              &jwks_len, &error))) {
    ret = cli_fail (global, CLI_EXIT_USAGE, "%s", error->message);
    goto out;
  }
  headers = cli_headers_parse (headers_text, headers_len, &error);
  if (headers == NULL) {
    ret = cli_fail (global, CLI_EXIT_USAGE, "%s: %s", headers_path,
        error->message);
    goto out;
  }
  if (now == 0)
    now = g_get_real_time () / G_USEC_PER_SEC;

  if (jwks_path) {
    keys = gst_session_webhook_key_set_parse (jwks_text, jwks_len, &error);
    if (keys == NULL) {
      ret = cli_fail (global, CLI_EXIT_USAGE, "%s: %s", jwks_path,
          error->message);
      goto out;
    }
    if (gst_session_webhook_key_set_get_n_keys (keys) == 0) {
      const gchar *const *skipped =
          gst_session_webhook_key_set_get_skipped (keys);

      ret = cli_fail (global, CLI_EXIT_USAGE, "%s has no usable key%s%s",
          jwks_path, skipped && skipped[0] ? ": " : "",
          skipped && skipped[0] ? skipped[0] : "");
      goto out;
    }
    v = gst_session_webhook_verify (keys, headers, (const guint8 *) body,
        body_len, now, leeway);
  } else {
    GstSessionWebhookVerifier *verifier =
        gst_session_webhook_verifier_new (jwks_url);

    g_object_set (verifier, "leeway", (guint) leeway, "max-body-size",
        (guint) MIN (body_len, G_MAXUINT), "allow-insecure-http",
        insecure_http, NULL);
    if (global->timeout_ms >= 0)
      g_object_set (verifier, "timeout", (guint) global->timeout_ms, NULL);
    gst_session_webhook_verifier_set_clock_func (verifier, fixed_clock, &now,
        NULL);
    v = gst_session_webhook_verifier_verify_sync (verifier, headers,
        (const guint8 *) body, body_len, NULL, NULL, &error);
    gst_object_unref (verifier);
    if (v == NULL) {
      ret = cli_fail (global, CLI_EXIT_INTERNAL, "%s", error->message);
      goto out;
    }
    if (v->result == GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE ||
        v->result == GST_SESSION_WEBHOOK_RESULT_NO_KEYS) {
      ret = cli_fail (global, CLI_EXIT_TRANSIENT, "cannot decide: %s", v->text);
      goto out;
    }
  }

  if (user_id == NULL || user_id[0] == '\0')
    g_printerr ("gst-session webhook verify: warning: no --user-id: the "
        "delivery may be meant for another account of the service\n");
  else
    gst_session_webhook_verification_check_account (v, user_id);
  if (v->result == GST_SESSION_WEBHOOK_RESULT_VALID) {
    delivery = gst_session_webhook_delivery_parse (body, body_len,
        MAX (body_len, 1), v->request_id, &error);
    if (delivery == NULL)
      delivery_error = g_strdup_printf ("the signature is valid but the body "
          "is not a delivery: %s", error->message);
  }
  ret = report (global, v, delivery, delivery_error);

out:
  g_clear_error (&error);
  g_free (delivery_error);
  g_clear_pointer (&delivery, gst_session_webhook_delivery_free);
  g_clear_pointer (&v, gst_session_webhook_verification_free);
  g_clear_pointer (&keys, gst_session_webhook_key_set_unref);
  g_clear_pointer (&headers, soup_message_headers_unref);
  g_free (headers_text);
  g_free (body);
  g_free (jwks_text);
  g_free (headers_path);
  g_free (body_path);
  g_free (jwks_path);
  g_free (jwks_url);
  g_free (user_id);
  return ret;
}
