/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstsessionratelimit
 * @title: GstSessionRateLimiter
 * @short_description: the per-minute limits of the management operations
 *
 * Spec 001, "Limits": each management operation may be called a number of
 * times per one-minute window, counted per client. The table is data here
 * (gst_session_management_op_per_minute()); a CLI command and its SDK
 * method are one #GstSessionManagementOp and share one limit (rule 1).
 *
 * What is consumed is a list of (limit, count):
 *
 * - as an operation of a client (gst_session_management_op_costs()): every
 *   operation consumes its own limit once; `runners logs` also consumes one
 *   `GET /runners/{runner_id}` (rule 2: it fetches the runner first), and
 *   `runners list`, which this project sends as `GET /runners`, also
 *   consumes one `GET /runners`;
 * - as one HTTP request seen by a service
 *   (gst_session_management_request_costs()): the limits of that request
 *   only, so the two requests of `runners logs` add up to the same costs.
 *
 * Windows are fixed, not sliding: a limit's window starts at the first call
 * counted in it and ends #GST_SESSION_RATE_LIMIT_WINDOW (60 s) later; then
 * the next call starts a new window. A call that would pass the limit is
 * refused, is not counted, and says how many seconds remain until the
 * window ends ("a rejected call stays rejected until the window resets"),
 * which is what a service sends as `x-ratelimit-reset`. An operation's
 * costs are checked together: refused, it consumes nothing.
 *
 * A client (key %NULL) calls gst_session_rate_limiter_try() before sending:
 * refused, nothing is sent. When the service answers 429 anyway,
 * gst_session_rate_limiter_note_reset() marks that limit full until
 * `x-ratelimit-reset` seconds from now. A service counts per client key
 * with gst_session_rate_limiter_try_request(). The same object serves both.
 *
 * Times are microseconds of a monotonic clock; a test may replace the clock
 * (gst_session_rate_limiter_set_clock()) or pass its own `now`. Every call
 * is thread-safe. Client keys are never logged (a service may key clients
 * by their API key).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/session/sessioninit.h>
#include <gst/session/http/http.h>
#include <gst/session/platform/platform.h>
#include "../session-private.h"

/* ---------------------------------------------------------------------- */
/* The table of spec 001, "Limits", as data.                              */
/* ---------------------------------------------------------------------- */

typedef struct
{
  const gchar *name;
  guint per_minute;
} OpInfo;

/* indexed by GstSessionManagementOp */
static const OpInfo op_table[GST_SESSION_MANAGEMENT_N_OPS] = {
  {"apps list", 120},
  {"apps runners", 300},
  {"runners list", 120},
  {"runners logs", 120},
  {"runners shell/exec", 90},
  {"runners stop", 60},
  {"runners kill", 300},
  {"GET /runners/{runner_id}", 120},
  {"GET /runners", 120},
};

#define ONE(op) {GST_SESSION_MANAGEMENT_OP_##op, 1}

static const GstSessionRateCost cost_apps_list[] = { ONE (APPS_LIST) };
static const GstSessionRateCost cost_apps_runners[] = { ONE (APPS_RUNNERS) };
static const GstSessionRateCost cost_runners_list[] =
    { ONE (RUNNERS_LIST), ONE (GET_RUNNERS) };
/* rule 2: the runner details fetched first count as a GET /runners/{id} */
static const GstSessionRateCost cost_runners_logs[] =
    { ONE (RUNNERS_LOGS), ONE (GET_RUNNER) };
static const GstSessionRateCost cost_runners_logs_only[] =
    { ONE (RUNNERS_LOGS) };
static const GstSessionRateCost cost_runners_shell[] = { ONE (RUNNERS_SHELL) };
static const GstSessionRateCost cost_runners_stop[] = { ONE (RUNNERS_STOP) };
static const GstSessionRateCost cost_runners_kill[] = { ONE (RUNNERS_KILL) };
static const GstSessionRateCost cost_get_runner[] = { ONE (GET_RUNNER) };

typedef struct
{
  const GstSessionRateCost *costs;
  guint n_costs;
} Costs;

#define COSTS(array) {array, G_N_ELEMENTS (array)}

/* An operation of a client, indexed by GstSessionManagementOp. GET /runners
 * is the same request as runners list: the same costs. */
static const Costs op_costs[GST_SESSION_MANAGEMENT_N_OPS] = {
  COSTS (cost_apps_list),
  COSTS (cost_apps_runners),
  COSTS (cost_runners_list),
  COSTS (cost_runners_logs),
  COSTS (cost_runners_shell),
  COSTS (cost_runners_stop),
  COSTS (cost_runners_kill),
  COSTS (cost_get_runner),
  COSTS (cost_runners_list),
};

/* One request a service sees (this project's REST paths, relative to
 * {api_url}; "*" is one non-empty path segment, "**" one or more). */
typedef struct
{
  const gchar *method;
  const gchar *segments[4];
  Costs costs;
} Route;

static const Route routes[] = {
  {"GET", {"apps"}, COSTS (cost_apps_list)},
  {"GET", {"apps", "**", "runners"}, COSTS (cost_apps_runners)},
  {"GET", {"runners"}, COSTS (cost_runners_list)},
  {"GET", {"runners", "*"}, COSTS (cost_get_runner)},
  {"GET", {"runners", "*", "logs"}, COSTS (cost_runners_logs_only)},
  {"POST", {"runners", "*", "exec"}, COSTS (cost_runners_shell)},
  {"POST", {"runners", "*", "stop"}, COSTS (cost_runners_stop)},
  {"POST", {"runners", "*", "kill"}, COSTS (cost_runners_kill)},
};

static gboolean
op_valid (GstSessionManagementOp op)
{
  return (guint) op < GST_SESSION_MANAGEMENT_N_OPS;
}

/**
 * gst_session_management_op_per_minute:
 * @op: an operation (a row of the table).
 *
 * Returns: the calls per minute spec 001 allows, or 0 for an invalid @op.
 */
guint
gst_session_management_op_per_minute (GstSessionManagementOp op)
{
  g_return_val_if_fail (op_valid (op), 0);
  return op_table[op].per_minute;
}

/**
 * gst_session_management_op_name:
 * @op: an operation.
 *
 * Returns: the name for people, as the spec's table writes it (`apps
 *   list`, `runners shell/exec`, `GET /runners/{runner_id}`, ...), or
 *   %NULL for an invalid @op.
 */
const gchar *
gst_session_management_op_name (GstSessionManagementOp op)
{
  g_return_val_if_fail (op_valid (op), NULL);
  return op_table[op].name;
}

/**
 * gst_session_management_op_costs:
 * @op: an operation.
 * @n_costs: (out): the number of costs.
 *
 * What one call of @op by a client consumes, all of it checked before
 * anything is sent: its own limit once; `runners logs` also one
 * `GET /runners/{runner_id}`; `runners list` and `GET /runners` (one and
 * the same request here) one of each of their two limits.
 *
 * Returns: (array length=n_costs) (transfer none): the costs, or %NULL for
 *   an invalid @op.
 */
const GstSessionRateCost *
gst_session_management_op_costs (GstSessionManagementOp op, guint * n_costs)
{
  g_return_val_if_fail (n_costs != NULL, NULL);
  *n_costs = 0;
  g_return_val_if_fail (op_valid (op), NULL);

  *n_costs = op_costs[op].n_costs;
  return op_costs[op].costs;
}

/* Whether the segments of a path match a pattern: "*" is one segment, "**"
 * one or more (an app id may hold a '/' once its %2F is decoded). */
static gboolean
segments_match (gchar ** path, const gchar * const *pattern)
{
  gchar **p;

  if (*pattern == NULL)
    return *path == NULL;
  if (*path == NULL || **path == '\0')
    return FALSE;
  if (strcmp (*pattern, "**") == 0) {
    for (p = path + 1;; p++) {
      if (segments_match (p, pattern + 1))
        return TRUE;
      if (*p == NULL || **p == '\0')
        return FALSE;
    }
  }
  if (strcmp (*pattern, "*") != 0 && strcmp (*pattern, *path) != 0)
    return FALSE;
  return segments_match (path + 1, pattern + 1);
}

/* Whether @path (no query) matches @pattern; one trailing slash is
 * allowed. */
static gboolean
path_matches (const gchar * path, const gchar * const *pattern)
{
  gchar **segments;
  gsize len = strlen (path);
  gboolean ret;

  if (path[0] != '/')
    return FALSE;
  if (len > 1 && path[len - 1] == '/')
    len--;
  segments = g_strsplit (path + 1, "/", -1);
  if (len < strlen (path)) {
    guint n = g_strv_length (segments);

    /* the empty segment after the trailing slash */
    g_free (segments[n - 1]);
    segments[n - 1] = NULL;
  }
  ret = segments_match (segments, pattern);
  g_strfreev (segments);
  return ret;
}

/**
 * gst_session_management_request_costs:
 * @method: the HTTP method.
 * @path: the request path relative to `{api_url}` (a query is ignored),
 *   percent-encoded as sent or decoded: an app id whose `/` was sent as
 *   `%2F` matches either way.
 * @costs: (out) (array length=n_costs) (transfer none) (optional): the
 *   costs.
 * @n_costs: (out) (optional): the number of costs.
 *
 * For a service: which limits one management request consumes, on this
 * project's paths: `GET /apps`, `GET /apps/{app}/runners`, `GET /runners`
 * (both `runners list` and `GET /runners`), `GET /runners/{id}`,
 * `GET /runners/{id}/logs` (`runners logs`; its first request is a
 * `GET /runners/{id}`), `POST /runners/{id}/exec`, `POST /runners/{id}/stop`
 * and `POST /runners/{id}/kill`.
 *
 * Returns: %TRUE when the request is rate limited; %FALSE (no costs) for
 *   any other request.
 */
gboolean
gst_session_management_request_costs (const gchar * method,
    const gchar * path, const GstSessionRateCost ** costs, guint * n_costs)
{
  gchar *bare;
  guint i;
  gboolean found = FALSE;

  if (costs)
    *costs = NULL;
  if (n_costs)
    *n_costs = 0;
  g_return_val_if_fail (method != NULL && path != NULL, FALSE);

  bare = g_strndup (path, strcspn (path, "?#"));
  for (i = 0; i < G_N_ELEMENTS (routes) && !found; i++) {
    if (g_ascii_strcasecmp (method, routes[i].method) == 0 &&
        path_matches (bare, routes[i].segments)) {
      if (costs)
        *costs = routes[i].costs.costs;
      if (n_costs)
        *n_costs = routes[i].costs.n_costs;
      found = TRUE;
    }
  }
  g_free (bare);
  return found;
}

/* ---------------------------------------------------------------------- */
/* The limiter                                                            */
/* ---------------------------------------------------------------------- */

/* A service sweeps out clients whose windows are all over after this many
 * new ones. */
#define PRUNE_EVERY 1024
/* x-ratelimit-reset is honoured up to a day */
#define MAX_RESET_SECONDS (24.0 * 60.0 * 60.0)

typedef struct
{
  gboolean started;             /* a window is open (until window_end) */
  gboolean full;                /* a 429 said so: full until window_end */
  gint64 window_end;
  guint count;
} Window;

typedef struct
{
  Window windows[GST_SESSION_MANAGEMENT_N_OPS];
} Client;

struct _GstSessionRateLimiter
{
  gint refcount;

  /* protects everything below; the clock is called under it; never held
   * while calling out otherwise (no other lock is taken under it) */
  GMutex lock;
  guint limits[GST_SESSION_MANAGEMENT_N_OPS];
  GstSessionRateLimiterClockFunc clock;
  gpointer clock_data;
  GDestroyNotify clock_notify;
  /* client key ("" for a client's own limiter) -> Client */
  GHashTable *clients;
  guint new_clients;
};

G_DEFINE_BOXED_TYPE (GstSessionRateLimiter, gst_session_rate_limiter,
    gst_session_rate_limiter_ref, gst_session_rate_limiter_unref);

static gint64
default_clock (gpointer user_data)
{
  return g_get_monotonic_time ();
}

/**
 * gst_session_rate_limiter_new:
 *
 * Returns: (transfer full): a limiter with the limits of spec 001, no
 *   windows open, and g_get_monotonic_time() as its clock.
 */
GstSessionRateLimiter *
gst_session_rate_limiter_new (void)
{
  GstSessionRateLimiter *limiter = g_new0 (GstSessionRateLimiter, 1);
  guint i;

  gst_session_init ();

  limiter->refcount = 1;
  g_mutex_init (&limiter->lock);
  for (i = 0; i < GST_SESSION_MANAGEMENT_N_OPS; i++)
    limiter->limits[i] = op_table[i].per_minute;
  limiter->clock = default_clock;
  limiter->clients = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      g_free);
  return limiter;
}

/**
 * gst_session_rate_limiter_ref:
 * @limiter: a limiter.
 *
 * Returns: (transfer full): @limiter.
 */
GstSessionRateLimiter *
gst_session_rate_limiter_ref (GstSessionRateLimiter * limiter)
{
  g_return_val_if_fail (limiter != NULL, NULL);
  g_atomic_int_inc (&limiter->refcount);
  return limiter;
}

/**
 * gst_session_rate_limiter_unref:
 * @limiter: (transfer full): a limiter.
 */
void
gst_session_rate_limiter_unref (GstSessionRateLimiter * limiter)
{
  g_return_if_fail (limiter != NULL);
  if (!g_atomic_int_dec_and_test (&limiter->refcount))
    return;

  if (limiter->clock_notify)
    limiter->clock_notify (limiter->clock_data);
  g_hash_table_unref (limiter->clients);
  g_mutex_clear (&limiter->lock);
  g_free (limiter);
}

/**
 * gst_session_rate_limiter_set_clock:
 * @limiter: a limiter.
 * @func: (nullable) (scope notified): the clock, or %NULL for
 *   g_get_monotonic_time().
 * @user_data: data for @func.
 * @notify: (nullable): frees @user_data.
 *
 * Replaces the clock of gst_session_rate_limiter_get_time() (tests).
 */
void
gst_session_rate_limiter_set_clock (GstSessionRateLimiter * limiter,
    GstSessionRateLimiterClockFunc func, gpointer user_data,
    GDestroyNotify notify)
{
  GDestroyNotify old_notify;
  gpointer old_data;

  g_return_if_fail (limiter != NULL);

  g_mutex_lock (&limiter->lock);
  old_notify = limiter->clock_notify;
  old_data = limiter->clock_data;
  limiter->clock = func ? func : default_clock;
  limiter->clock_data = func ? user_data : NULL;
  limiter->clock_notify = func ? notify : NULL;
  g_mutex_unlock (&limiter->lock);

  if (old_notify)
    old_notify (old_data);
}

/**
 * gst_session_rate_limiter_get_time:
 * @limiter: a limiter.
 *
 * Returns: the time of the limiter's clock, in microseconds: the `now` to
 *   pass to the other calls.
 */
gint64
gst_session_rate_limiter_get_time (GstSessionRateLimiter * limiter)
{
  gint64 now;

  g_return_val_if_fail (limiter != NULL, 0);

  g_mutex_lock (&limiter->lock);
  now = limiter->clock (limiter->clock_data);
  g_mutex_unlock (&limiter->lock);
  return now;
}

/**
 * gst_session_rate_limiter_set_limit:
 * @limiter: a limiter.
 * @limit: the limit (a row of the table).
 * @per_minute: calls per window; 0 removes the limit (nothing is counted).
 *
 * Replaces a limit of the table for this limiter (tests, fault injection).
 * Windows already open keep their count.
 */
void
gst_session_rate_limiter_set_limit (GstSessionRateLimiter * limiter,
    GstSessionManagementOp limit, guint per_minute)
{
  g_return_if_fail (limiter != NULL);
  g_return_if_fail (op_valid (limit));

  g_mutex_lock (&limiter->lock);
  limiter->limits[limit] = per_minute;
  g_mutex_unlock (&limiter->lock);
}

/**
 * gst_session_rate_limiter_get_limit:
 * @limiter: a limiter.
 * @limit: the limit.
 *
 * Returns: the calls per window of @limit (0: none).
 */
guint
gst_session_rate_limiter_get_limit (GstSessionRateLimiter * limiter,
    GstSessionManagementOp limit)
{
  guint per_minute;

  g_return_val_if_fail (limiter != NULL, 0);
  g_return_val_if_fail (op_valid (limit), 0);

  g_mutex_lock (&limiter->lock);
  per_minute = limiter->limits[limit];
  g_mutex_unlock (&limiter->lock);
  return per_minute;
}

/* Seconds from @now to @end, rounded up. */
static guint
seconds_until (gint64 now, gint64 end)
{
  gint64 left = end - now;

  if (left <= 0)
    return 0;
  return (guint) ((left + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC);
}

/* Lock held. Closes a window that is over. */
static void
window_update (Window * w, gint64 now)
{
  if (w->started && now >= w->window_end)
    memset (w, 0, sizeof (Window));
}

static gboolean
client_idle (Client * client, gint64 now)
{
  guint i;

  for (i = 0; i < GST_SESSION_MANAGEMENT_N_OPS; i++) {
    window_update (&client->windows[i], now);
    if (client->windows[i].started)
      return FALSE;
  }
  return TRUE;
}

static gboolean
prune_idle (gpointer key, gpointer value, gpointer user_data)
{
  return client_idle (value, *(const gint64 *) user_data);
}

/* Lock held. */
static void
prune_locked (GstSessionRateLimiter * limiter, gint64 now)
{
  guint removed;

  removed = g_hash_table_foreach_remove (limiter->clients, prune_idle, &now);
  limiter->new_clients = 0;
  if (removed)
    GST_LOG ("rate limiter: %u idle clients forgotten", removed);
}

/* Lock held. */
static Client *
client_get (GstSessionRateLimiter * limiter, const gchar * key, gint64 now)
{
  Client *client;

  if (key == NULL)
    key = "";
  client = g_hash_table_lookup (limiter->clients, key);
  if (client)
    return client;

  if (++limiter->new_clients >= PRUNE_EVERY)
    prune_locked (limiter, now);
  client = g_new0 (Client, 1);
  g_hash_table_insert (limiter->clients, g_strdup (key), client);
  return client;
}

/**
 * gst_session_rate_limiter_try_costs:
 * @limiter: a limiter.
 * @key: (nullable): the client (a service's key for it), or %NULL for a
 *   client's own limiter.
 * @costs: (array length=n_costs): what the call consumes.
 * @n_costs: the number of costs.
 * @now: the time, in microseconds of the limiter's clock.
 * @retry_after: (out) (optional): when refused, the seconds until the
 *   fullest window it hit ends (at least 1); 0 when allowed.
 *
 * Counts a call when every limit in @costs has room for it in its window;
 * otherwise counts nothing. A limit without a window opens one at @now.
 *
 * Returns: %TRUE when the call may be made (it has been counted).
 */
gboolean
gst_session_rate_limiter_try_costs (GstSessionRateLimiter * limiter,
    const gchar * key, const GstSessionRateCost * costs, guint n_costs,
    gint64 now, guint * retry_after)
{
  guint need[GST_SESSION_MANAGEMENT_N_OPS] = { 0, };
  guint i, wait = 0;
  gboolean refused = FALSE;
  Client *client;

  if (retry_after)
    *retry_after = 0;
  g_return_val_if_fail (limiter != NULL, FALSE);
  g_return_val_if_fail (costs != NULL || n_costs == 0, FALSE);

  for (i = 0; i < n_costs; i++) {
    g_return_val_if_fail (op_valid (costs[i].limit), FALSE);
    need[costs[i].limit] += costs[i].count;
  }

  g_mutex_lock (&limiter->lock);
  client = client_get (limiter, key, now);

  for (i = 0; i < GST_SESSION_MANAGEMENT_N_OPS; i++) {
    Window *w = &client->windows[i];
    guint limit = limiter->limits[i];

    if (need[i] == 0)
      continue;
    window_update (w, now);
    if (w->full || (limit > 0 && (w->count > limit || need[i] > limit -
                w->count))) {
      refused = TRUE;
      wait = MAX (wait, w->started ? seconds_until (now, w->window_end) :
          seconds_until (0, GST_SESSION_RATE_LIMIT_WINDOW));
      GST_LOG ("rate limit %s: %u of %u used, refused",
          op_table[i].name, w->count, limit);
    }
  }

  if (!refused) {
    for (i = 0; i < GST_SESSION_MANAGEMENT_N_OPS; i++) {
      Window *w = &client->windows[i];

      if (need[i] == 0 || limiter->limits[i] == 0)
        continue;
      if (!w->started) {
        w->started = TRUE;
        w->window_end = now + GST_SESSION_RATE_LIMIT_WINDOW;
      }
      w->count += need[i];
    }
  }
  g_mutex_unlock (&limiter->lock);

  if (refused && retry_after)
    *retry_after = MAX (wait, 1);
  return !refused;
}

/**
 * gst_session_rate_limiter_try_key:
 * @limiter: a limiter.
 * @key: (nullable): the client, or %NULL.
 * @op: the operation.
 * @now: the time, in microseconds.
 * @retry_after: (out) (optional): seconds until a refusal ends.
 *
 * gst_session_rate_limiter_try_costs() with the costs of @op
 * (gst_session_management_op_costs()).
 *
 * Returns: %TRUE when @op may be called (it has been counted).
 */
gboolean
gst_session_rate_limiter_try_key (GstSessionRateLimiter * limiter,
    const gchar * key, GstSessionManagementOp op, gint64 now,
    guint * retry_after)
{
  if (retry_after)
    *retry_after = 0;
  g_return_val_if_fail (op_valid (op), FALSE);

  return gst_session_rate_limiter_try_costs (limiter, key,
      op_costs[op].costs, op_costs[op].n_costs, now, retry_after);
}

/**
 * gst_session_rate_limiter_try:
 * @limiter: a limiter.
 * @op: the operation.
 * @now: the time, in microseconds (gst_session_rate_limiter_get_time()).
 * @retry_after: (out) (optional): when refused, the seconds until the
 *   window ends.
 *
 * For a client, before sending @op: refused, send nothing. Same as
 * gst_session_rate_limiter_try_key() with a %NULL key.
 *
 * Returns: %TRUE when @op may be sent (it has been counted).
 */
gboolean
gst_session_rate_limiter_try (GstSessionRateLimiter * limiter,
    GstSessionManagementOp op, gint64 now, guint * retry_after)
{
  return gst_session_rate_limiter_try_key (limiter, NULL, op, now, retry_after);
}

/**
 * gst_session_rate_limiter_try_request:
 * @limiter: a limiter.
 * @key: (nullable): the client.
 * @method: the HTTP method.
 * @path: the path relative to `{api_url}`.
 * @now: the time, in microseconds.
 * @retry_after: (out) (optional): when refused, the value for
 *   `x-ratelimit-reset`.
 *
 * For a service: counts one request with
 * gst_session_management_request_costs(). A request that is not a limited
 * management request always passes and is not counted.
 *
 * Returns: %TRUE when the request may be served; %FALSE: answer 429.
 */
gboolean
gst_session_rate_limiter_try_request (GstSessionRateLimiter * limiter,
    const gchar * key, const gchar * method, const gchar * path, gint64 now,
    guint * retry_after)
{
  const GstSessionRateCost *costs;
  guint n_costs;

  if (retry_after)
    *retry_after = 0;
  g_return_val_if_fail (limiter != NULL, FALSE);

  if (!gst_session_management_request_costs (method, path, &costs, &n_costs))
    return TRUE;
  return gst_session_rate_limiter_try_costs (limiter, key, costs, n_costs,
      now, retry_after);
}

/**
 * gst_session_rate_limiter_note_reset:
 * @limiter: a limiter.
 * @key: (nullable): the client, or %NULL.
 * @limit: the limit the refused request counts toward.
 * @now: the time, in microseconds.
 * @reset_seconds: the answer's `x-ratelimit-reset`, or a negative value
 *   when absent (a whole window is assumed).
 *
 * A 429 answer: the window of @limit is full until @reset_seconds from
 * @now (at most a day), whatever was counted here; the next call after it
 * opens a new window. A reset of 0 ends the window now.
 *
 * Returns: the seconds until the window ends, rounded up.
 */
guint
gst_session_rate_limiter_note_reset (GstSessionRateLimiter * limiter,
    const gchar * key, GstSessionManagementOp limit, gint64 now,
    gdouble reset_seconds)
{
  Client *client;
  Window *w;
  gint64 end;

  g_return_val_if_fail (limiter != NULL, 0);
  g_return_val_if_fail (op_valid (limit), 0);

  /* the negation also catches NaN */
  if (!(reset_seconds >= 0.0))
    reset_seconds = GST_SESSION_RATE_LIMIT_WINDOW / (gdouble) G_USEC_PER_SEC;
  reset_seconds = MIN (reset_seconds, MAX_RESET_SECONDS);
  /* whole microseconds, rounded up (no libm) */
  end = now + (gint64) (reset_seconds * G_USEC_PER_SEC + 0.999);

  g_mutex_lock (&limiter->lock);
  client = client_get (limiter, key, now);
  w = &client->windows[limit];
  if (end > now) {
    w->started = TRUE;
    w->full = TRUE;
    w->window_end = end;
  } else {
    memset (w, 0, sizeof (Window));
  }
  g_mutex_unlock (&limiter->lock);

  GST_DEBUG ("rate limit %s: full for %g s (429)", op_table[limit].name,
      reset_seconds);
  return seconds_until (now, end);
}

/**
 * gst_session_rate_limiter_remaining:
 * @limiter: a limiter.
 * @key: (nullable): the client, or %NULL.
 * @limit: the limit.
 * @now: the time, in microseconds.
 * @reset: (out) (optional): seconds until the open window ends, 0 when none
 *   is open.
 *
 * Returns: the calls of @limit left in the window (the whole limit when no
 *   window is open; %G_MAXUINT when @limit is removed).
 */
guint
gst_session_rate_limiter_remaining (GstSessionRateLimiter * limiter,
    const gchar * key, GstSessionManagementOp limit, gint64 now, guint * reset)
{
  Client *client;
  Window w = { 0, };
  guint per_minute, left;

  if (reset)
    *reset = 0;
  g_return_val_if_fail (limiter != NULL, 0);
  g_return_val_if_fail (op_valid (limit), 0);

  g_mutex_lock (&limiter->lock);
  per_minute = limiter->limits[limit];
  client = g_hash_table_lookup (limiter->clients, key ? key : "");
  if (client) {
    window_update (&client->windows[limit], now);
    w = client->windows[limit];
  }
  g_mutex_unlock (&limiter->lock);

  if (w.full)
    left = 0;
  else if (per_minute == 0)
    left = G_MAXUINT;
  else
    left = w.count < per_minute ? per_minute - w.count : 0;
  if (reset && w.started)
    *reset = seconds_until (now, w.window_end);
  return left;
}

/**
 * gst_session_rate_limiter_prune:
 * @limiter: a limiter.
 * @now: the time, in microseconds.
 *
 * Forgets the clients whose windows are all over (a service calls it from
 * time to time; it also happens on its own every 1024 new clients).
 */
void
gst_session_rate_limiter_prune (GstSessionRateLimiter * limiter, gint64 now)
{
  g_return_if_fail (limiter != NULL);

  g_mutex_lock (&limiter->lock);
  prune_locked (limiter, now);
  g_mutex_unlock (&limiter->lock);
}
