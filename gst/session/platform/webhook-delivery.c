/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The body of a verified delivery (gst_session_webhook_delivery_parse()).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <json-glib/json-glib.h>
#include <nettle/eddsa.h>

#include <gst/session/sessioninit.h>
#include <gst/session/jsongate.h>
#include <gst/session/http/http.h>
#include <gst/session/platform/platform.h>
#include "../session-private.h"
#include "webhook.h"
#include "webhook-private.h"

typedef enum
{
  FIELD_STRING,
  FIELD_OBJECT_OR_NULL,
} FieldKind;

typedef struct
{
  const gchar *name;
  FieldKind kind;
  gboolean required;
} DeliveryField;

/* Spec 001, "Webhook delivery body". Fields the table does not mark
 * conditional ("present when ...") are required; the conditions are in
 * delivery_check_rules(). Other members are ignored. */
static const DeliveryField delivery_fields[] = {
  {"request_id", FIELD_STRING, TRUE},
  {"gateway_request_id", FIELD_STRING, TRUE},
  {"status", FIELD_STRING, TRUE},
  {"payload", FIELD_OBJECT_OR_NULL, TRUE},
  {"error", FIELD_STRING, FALSE},
  {"payload_error", FIELD_STRING, FALSE},
};

#define DELIVERY_INVALID(error, ...) \
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_MESSAGE, \
        "webhook delivery: " __VA_ARGS__)

static gboolean
delivery_check_fields (JsonObject * object, GError ** error)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (delivery_fields); i++) {
    const DeliveryField *f = &delivery_fields[i];
    JsonNode *node = json_object_get_member (object, f->name);

    if (node == NULL) {
      if (!f->required)
        continue;
      DELIVERY_INVALID (error, "/%s is missing", f->name);
      return FALSE;
    }
    if (f->kind == FIELD_STRING
        && webhook_member_string (object, f->name) == NULL) {
      DELIVERY_INVALID (error, "/%s must be a string", f->name);
      return FALSE;
    }
    if (f->kind == FIELD_OBJECT_OR_NULL && !JSON_NODE_HOLDS_OBJECT (node)
        && !JSON_NODE_HOLDS_NULL (node)) {
      DELIVERY_INVALID (error, "/%s must be an object or null", f->name);
      return FALSE;
    }
  }
  return TRUE;
}

/* The rules between fields (spec 001, delivery body and Events). */
static gboolean
delivery_check_rules (GstSessionWebhookDelivery * d, const gchar * status,
    const gchar * signed_request_id, GError ** error)
{
  if (g_strcmp0 (status, "OK") == 0) {
    d->status = GST_SESSION_WEBHOOK_STATUS_OK;
  } else if (g_strcmp0 (status, "ERROR") == 0) {
    d->status = GST_SESSION_WEBHOOK_STATUS_ERROR;
  } else {
    DELIVERY_INVALID (error, "/status must be \"OK\" or \"ERROR\"");
    return FALSE;
  }
  if (*d->request_id == '\0') {
    DELIVERY_INVALID (error, "/request_id is empty");
    return FALSE;
  }
  if (signed_request_id && strcmp (d->request_id, signed_request_id) != 0) {
    DELIVERY_INVALID (error, "/request_id differs from the signed %s header",
        GST_SESSION_WEBHOOK_HEADER_REQUEST_ID);
    return FALSE;
  }
  if (d->status == GST_SESSION_WEBHOOK_STATUS_ERROR && d->error == NULL) {
    DELIVERY_INVALID (error, "/error is missing (status is \"ERROR\")");
    return FALSE;
  }
  if (d->status == GST_SESSION_WEBHOOK_STATUS_OK && d->payload == NULL
      && d->payload_error == NULL) {
    DELIVERY_INVALID (error, "/payload_error is missing (status is \"OK\" "
        "and the payload is null)");
    return FALSE;
  }
  return TRUE;
}

/* The error objects of the payload's `detail` array, read by the model-level
 * error parser of httperror.c. A `detail` that is not an array gives none:
 * spec 001 says some endpoints do not follow the structure yet. */
static void
delivery_read_detail (GstSessionWebhookDelivery * d)
{
  JsonNode *detail;
  GstSessionHttpError *parsed;
  gchar *array, *text;

  if (d->status != GST_SESSION_WEBHOOK_STATUS_ERROR || d->payload == NULL)
    return;
  detail = json_object_get_member (json_node_get_object (d->payload), "detail");
  if (detail == NULL || !JSON_NODE_HOLDS_ARRAY (detail))
    return;

  array = gst_session_json_write (detail, FALSE);
  text = g_strconcat ("{\"detail\": ", array, "}", NULL);
  parsed = gst_session_http_error_parse (0, NULL, text, strlen (text));
  if (parsed->kind == GST_SESSION_HTTP_ERROR_KIND_MODEL) {
    g_ptr_array_unref (d->detail);
    d->detail = g_ptr_array_ref (parsed->items);
  }
  gst_session_http_error_free (parsed);
  g_free (text);
  g_free (array);
}

/**
 * gst_session_webhook_delivery_parse:
 * @body: (array length=length) (element-type guint8): the raw delivery
 *   body; it need not end with a NUL byte.
 * @length: the length of @body in bytes.
 * @max_length: the largest body accepted, in bytes; 0 for
 *   %GST_SESSION_WEBHOOK_MAX_BODY.
 * @signed_request_id: (nullable): the request id of the verified
 *   `X-Svc-Webhook-Request-Id` header (#GstSessionWebhookVerification's
 *   `request_id`); the body's must be equal. %NULL skips that check.
 * @error: return location for a #GError, or %NULL.
 *
 * Reads a webhook delivery body (spec 001). Parse only a body whose
 * signature was verified. The rules:
 *
 * - `request_id` (a non-empty string, equal to @signed_request_id),
 *   `gateway_request_id` (a string), `status` (`"OK"` or `"ERROR"`) and
 *   `payload` (an object or null) must be present;
 * - `error` and `payload_error`, when present, are strings;
 * - status `ERROR` needs `error`; status `OK` with a null payload needs
 *   `payload_error`;
 * - with status `ERROR`, the error objects of the payload's `detail`
 *   array are read into @detail.
 *
 * Other members are ignored.
 *
 * Returns: (transfer full) (nullable): the delivery, or %NULL with @error
 *   set: %GST_SESSION_ERROR_INVALID_JSON when the body is over
 *   @max_length, %GST_SESSION_WEBHOOK_MAX_DEPTH levels, not UTF-8 or not a
 *   JSON object; %GST_SESSION_ERROR_INVALID_MESSAGE, naming the field as a
 *   JSON pointer, when a rule is broken.
 */
GstSessionWebhookDelivery *
gst_session_webhook_delivery_parse (const gchar * body, gsize length,
    gsize max_length, const gchar * signed_request_id, GError ** error)
{
  GstSessionWebhookDelivery *d;
  JsonNode *root, *payload;
  JsonObject *object;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  gst_session_init ();

  root = webhook_parse_object ("webhook delivery: the body", body, length,
      max_length ? max_length : GST_SESSION_WEBHOOK_MAX_BODY, error);
  if (root == NULL)
    return NULL;
  object = json_node_get_object (root);
  if (!delivery_check_fields (object, error)) {
    json_node_unref (root);
    return NULL;
  }

  d = g_new0 (GstSessionWebhookDelivery, 1);
  d->request_id = g_strdup (webhook_member_string (object, "request_id"));
  d->gateway_request_id = g_strdup (webhook_member_string (object,
          "gateway_request_id"));
  payload = json_object_get_member (object, "payload");
  if (JSON_NODE_HOLDS_OBJECT (payload))
    d->payload = json_node_ref (payload);
  d->error = g_strdup (webhook_member_string (object, "error"));
  d->payload_error = g_strdup (webhook_member_string (object, "payload_error"));
  d->detail = g_ptr_array_new ();

  if (!delivery_check_rules (d, webhook_member_string (object, "status"),
          signed_request_id, error)) {
    gst_session_webhook_delivery_free (d);
    json_node_unref (root);
    return NULL;
  }
  delivery_read_detail (d);
  json_node_unref (root);

  GST_DEBUG ("webhook delivery %.128s: %s, %s payload, %u detail items",
      d->request_id, d->status == GST_SESSION_WEBHOOK_STATUS_OK ? "OK" :
      "ERROR", d->payload ? "an object" : "a null", d->detail->len);
  return d;
}

/**
 * gst_session_webhook_delivery_copy:
 * @delivery: a delivery.
 *
 * Returns: (transfer full): a deep copy of @delivery (the sealed payload
 *   is shared).
 */
GstSessionWebhookDelivery *
gst_session_webhook_delivery_copy (const GstSessionWebhookDelivery * delivery)
{
  GstSessionWebhookDelivery *copy;
  GstSessionHttpError holder = { 0, }, *items;

  g_return_val_if_fail (delivery != NULL, NULL);

  copy = g_new0 (GstSessionWebhookDelivery, 1);
  copy->request_id = g_strdup (delivery->request_id);
  copy->gateway_request_id = g_strdup (delivery->gateway_request_id);
  copy->status = delivery->status;
  if (delivery->payload)
    copy->payload = json_node_ref (delivery->payload);
  copy->error = g_strdup (delivery->error);
  copy->payload_error = g_strdup (delivery->payload_error);
  /* httperror.c knows how to copy its items */
  holder.items = delivery->detail;
  items = gst_session_http_error_copy (&holder);
  copy->detail = g_ptr_array_ref (items->items);
  gst_session_http_error_free (items);
  return copy;
}

/**
 * gst_session_webhook_delivery_free:
 * @delivery: (transfer full) (nullable): a delivery.
 *
 * Frees @delivery. %NULL is ignored.
 */
void
gst_session_webhook_delivery_free (GstSessionWebhookDelivery * delivery)
{
  if (delivery == NULL)
    return;
  g_free (delivery->request_id);
  g_free (delivery->gateway_request_id);
  g_clear_pointer (&delivery->payload, json_node_unref);
  g_free (delivery->error);
  g_free (delivery->payload_error);
  g_clear_pointer (&delivery->detail, g_ptr_array_unref);
  g_free (delivery);
}

G_DEFINE_BOXED_TYPE (GstSessionWebhookDelivery, gst_session_webhook_delivery,
    gst_session_webhook_delivery_copy, gst_session_webhook_delivery_free);
