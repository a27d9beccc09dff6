/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_RATELIMIT_H__
#define __GST_SESSION_RATELIMIT_H__

#include <gst/session/platform/platform-prelude.h>
#include <gst/session/platform/platform-enumtypes.h>

G_BEGIN_DECLS

/**
 * GST_SESSION_RATE_LIMIT_WINDOW:
 *
 * The length of one counting window, in microseconds (one minute).
 */
#define GST_SESSION_RATE_LIMIT_WINDOW (60 * G_USEC_PER_SEC)

/**
 * GstSessionManagementOp:
 * @GST_SESSION_MANAGEMENT_OP_APPS_LIST: `apps list` / `client.apps.list()`:
 *   120 per minute.
 * @GST_SESSION_MANAGEMENT_OP_APPS_RUNNERS: `apps runners` /
 *   `client.apps.runners()`: 300 per minute.
 * @GST_SESSION_MANAGEMENT_OP_RUNNERS_LIST: `runners list` /
 *   `client.runners.list()`: 120 per minute.
 * @GST_SESSION_MANAGEMENT_OP_RUNNERS_LOGS: `runners logs`: 120 per minute;
 *   the operation also counts one %GST_SESSION_MANAGEMENT_OP_GET_RUNNER
 *   (spec 001, Limits, rule 2).
 * @GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL: `runners shell` and
 *   `runners exec` (one limit): 90 per minute.
 * @GST_SESSION_MANAGEMENT_OP_RUNNERS_STOP: `runners stop` /
 *   `client.runners.stop()`: 60 per minute.
 * @GST_SESSION_MANAGEMENT_OP_RUNNERS_KILL: `runners kill` /
 *   `client.runners.kill()`: 300 per minute.
 * @GST_SESSION_MANAGEMENT_OP_GET_RUNNER: REST `GET /runners/{runner_id}`:
 *   120 per minute.
 * @GST_SESSION_MANAGEMENT_OP_GET_RUNNERS: REST `GET /runners`: 120 per
 *   minute.
 *
 * The rate-limited management operations of spec 001, one value per row of
 * its Limits table: a CLI command and its SDK method are one value and
 * share one limit (rule 1). A value names both an operation and the limit
 * of its row; gst_session_management_op_costs() says which limits an
 * operation consumes.
 */
typedef enum {
  GST_SESSION_MANAGEMENT_OP_APPS_LIST,
  GST_SESSION_MANAGEMENT_OP_APPS_RUNNERS,
  GST_SESSION_MANAGEMENT_OP_RUNNERS_LIST,
  GST_SESSION_MANAGEMENT_OP_RUNNERS_LOGS,
  GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL,
  GST_SESSION_MANAGEMENT_OP_RUNNERS_STOP,
  GST_SESSION_MANAGEMENT_OP_RUNNERS_KILL,
  GST_SESSION_MANAGEMENT_OP_GET_RUNNER,
  GST_SESSION_MANAGEMENT_OP_GET_RUNNERS,
} GstSessionManagementOp;

/**
 * GST_SESSION_MANAGEMENT_N_OPS:
 *
 * The number of #GstSessionManagementOp values.
 */
#define GST_SESSION_MANAGEMENT_N_OPS 9

#define GST_SESSION_TYPE_MANAGEMENT_OP (gst_session_management_op_get_type ())

/**
 * GstSessionRateCost:
 * @limit: the limit (the row of the table) that is consumed.
 * @count: how many calls of it are consumed.
 *
 * One part of what an operation or a request consumes.
 */
typedef struct {
  GstSessionManagementOp limit;
  guint count;
} GstSessionRateCost;

GST_SESSION_PLATFORM_API
guint gst_session_management_op_per_minute (GstSessionManagementOp op);

GST_SESSION_PLATFORM_API
const gchar * gst_session_management_op_name (GstSessionManagementOp op);

GST_SESSION_PLATFORM_API
const GstSessionRateCost * gst_session_management_op_costs (GstSessionManagementOp op,
    guint * n_costs);

GST_SESSION_PLATFORM_API
gboolean gst_session_management_request_costs (const gchar * method,
    const gchar * path, const GstSessionRateCost ** costs, guint * n_costs);

/**
 * GstSessionRateLimiterClockFunc:
 * @user_data: the data given with the function.
 *
 * A monotonic clock, like g_get_monotonic_time(). It is called with the
 * limiter's lock held and must not call the limiter.
 *
 * Returns: the time in microseconds.
 */
typedef gint64 (*GstSessionRateLimiterClockFunc) (gpointer user_data);

/**
 * GstSessionRateLimiter:
 *
 * Counts management calls per client in fixed one-minute windows (opaque,
 * reference counted, thread-safe).
 */
typedef struct _GstSessionRateLimiter GstSessionRateLimiter;

GST_SESSION_PLATFORM_API
GType gst_session_rate_limiter_get_type (void);
#define GST_SESSION_TYPE_RATE_LIMITER (gst_session_rate_limiter_get_type ())

GST_SESSION_PLATFORM_API
GstSessionRateLimiter * gst_session_rate_limiter_new (void);

GST_SESSION_PLATFORM_API
GstSessionRateLimiter * gst_session_rate_limiter_ref (GstSessionRateLimiter * limiter);

GST_SESSION_PLATFORM_API
void gst_session_rate_limiter_unref (GstSessionRateLimiter * limiter);

GST_SESSION_PLATFORM_API
void gst_session_rate_limiter_set_clock (GstSessionRateLimiter * limiter,
    GstSessionRateLimiterClockFunc func, gpointer user_data,
    GDestroyNotify notify);

GST_SESSION_PLATFORM_API
gint64 gst_session_rate_limiter_get_time (GstSessionRateLimiter * limiter);

GST_SESSION_PLATFORM_API
void gst_session_rate_limiter_set_limit (GstSessionRateLimiter * limiter,
    GstSessionManagementOp limit, guint per_minute);

GST_SESSION_PLATFORM_API
guint gst_session_rate_limiter_get_limit (GstSessionRateLimiter * limiter,
    GstSessionManagementOp limit);

GST_SESSION_PLATFORM_API
gboolean gst_session_rate_limiter_try (GstSessionRateLimiter * limiter,
    GstSessionManagementOp op, gint64 now, guint * retry_after);

GST_SESSION_PLATFORM_API
gboolean gst_session_rate_limiter_try_key (GstSessionRateLimiter * limiter,
    const gchar * key, GstSessionManagementOp op, gint64 now,
    guint * retry_after);

GST_SESSION_PLATFORM_API
gboolean gst_session_rate_limiter_try_costs (GstSessionRateLimiter * limiter,
    const gchar * key, const GstSessionRateCost * costs, guint n_costs,
    gint64 now, guint * retry_after);

GST_SESSION_PLATFORM_API
gboolean gst_session_rate_limiter_try_request (GstSessionRateLimiter * limiter,
    const gchar * key, const gchar * method, const gchar * path, gint64 now,
    guint * retry_after);

GST_SESSION_PLATFORM_API
guint gst_session_rate_limiter_note_reset (GstSessionRateLimiter * limiter,
    const gchar * key, GstSessionManagementOp limit, gint64 now,
    gdouble reset_seconds);

GST_SESSION_PLATFORM_API
guint gst_session_rate_limiter_remaining (GstSessionRateLimiter * limiter,
    const gchar * key, GstSessionManagementOp limit, gint64 now,
    guint * reset);

GST_SESSION_PLATFORM_API
void gst_session_rate_limiter_prune (GstSessionRateLimiter * limiter,
    gint64 now);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstSessionRateLimiter, gst_session_rate_limiter_unref)

G_END_DECLS

#endif /* __GST_SESSION_RATELIMIT_H__ */
