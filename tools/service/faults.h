/* gst-session-service: injectable faults
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __SVC_FAULTS_H__
#define __SVC_FAULTS_H__

#include <json-glib/json-glib.h>
#include "service.h"

G_BEGIN_DECLS

/* Times are seconds after the control channel opened; a negative time
 * means "not set". */
struct _SvcFaults
{
  gchar *refuse_type;           /* request-level or model-level type */
  guint refuse_status;          /* 0: the type's typical status */
  gint refuse_retryable;        /* -1: the type's default */
  gdouble answer_delay;
  gdouble drop_after;
  gboolean drop_keep_response;
  gdouble stall_at;
  gdouble stall_for;
  gdouble exhaust_after;
  gchar *bad_message;           /* malformed, unknown_type, schema */
  gdouble bad_message_at;
  gchar *director_error;        /* a director error code */
  gdouble director_error_at;
  gdouble resize_at;            /* the sender changes its video size */
  gint resize_width;            /* unannounced, as libwebrtc adapts */
  gint resize_height;
  gint announce_width;          /* > 0: the world's session_info */
  gint announce_height;         /* announces this resolution */
  gboolean no_configured;       /* the director never answers configure */
};

/* Faults for the next sessions (session_id NULL) of one app (-1: any), or
 * for the live session @session_id */
typedef struct
{
  gint app;
  gchar *session_id;
  gint remaining;               /* -1: every session */
  SvcFaults *faults;
} SvcFaultRule;

SvcFaults *svc_faults_new (void);
SvcFaults *svc_faults_copy (const SvcFaults * faults);
void svc_faults_merge (SvcFaults * into, const SvcFaults * from);
gboolean svc_faults_is_empty (const SvcFaults * faults);
void svc_faults_free (SvcFaults * faults);

gboolean svc_faults_set_option (SvcFaults * faults, const gchar * name,
    const gchar * value, gint * count, GError ** error);

SvcFaultRule *svc_fault_rule_from_json (JsonNode * node, GError ** error);
void svc_fault_rule_to_json (const SvcFaultRule * rule, JsonBuilder * builder);
void svc_fault_rule_free (SvcFaultRule * rule);

gboolean svc_faults_refusal (const SvcFaults * faults, const gchar * base_url,
    guint * status, gchar ** body, gchar ** error_type, gint * retryable,
    gboolean * request_level);

gboolean svc_error_type_is_request_level (const gchar * type);
guint svc_error_type_status (const gchar * type);
gboolean svc_model_error_type (const gchar * type, guint * status,
    gboolean * retryable, const gchar ** ctx);
const gchar *svc_model_error_type_nth (guint i);

G_END_DECLS

#endif /* __SVC_FAULTS_H__ */
