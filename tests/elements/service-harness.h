/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The reference service as a child process on 127.0.0.1, port 0, for the
 * element tests; and bounded waits on a pipeline's bus.
 */

#ifndef __SERVICE_HARNESS_H__
#define __SERVICE_HARNESS_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* gst-discoverer's bound on reading a recording: 10 s timed out once
 * under the stress load (GST_DISCOVERER_TIMEOUT on a playable MP4) */
#define DISCOVER_TIMEOUT (30 * GST_SECOND)

/* The duration gst-discoverer reads in the recording at @path; fails,
 * naming its result, its error and the file's size, when it cannot. */
GstClockTime recording_duration (const gchar * path);

typedef struct _ServiceHarness ServiceHarness;

/* Starts gst-session-service with the given extra arguments (NULL
 * terminated); fails the test if it does not print its URL in time. */
ServiceHarness *service_harness_start (const gchar * first_arg, ...)
    G_GNUC_NULL_TERMINATED;
void service_harness_stop (ServiceHarness * h);
guint service_harness_thread_count (void);
gchar *service_harness_dtls_thread (void);
void service_harness_settle_threads (void);
const gchar *service_harness_base_url (ServiceHarness * h);
/* the service's process id, as a string (its /proc entry) */
const gchar *service_harness_pid (ServiceHarness * h);
/* the start-session endpoint of "world" or "director" (free it) */
gchar *service_harness_url (ServiceHarness * h, const gchar * app);
/* POSTs the fault rule @json (docs/reference-service.md, Faults) to the
 * service's /admin/faults; fails the test unless it answers 2xx in 10 s */
void service_harness_post_faults (ServiceHarness * h, const gchar * json);

/* Records every message of a pipeline's bus (a sync handler), so tests
 * wait for the Nth message of a kind with a bound, in any order. */
typedef struct _BusLog BusLog;

BusLog *bus_log_new (GstElement * pipeline);
void bus_log_free (BusLog * log);
/* the @nth (from 1) message of @type (and, when @name is set, whose
 * structure has that name), waiting up to @timeout; NULL on timeout */
GstMessage *bus_log_wait (BusLog * log, GstMessageType type,
    const gchar * name, guint nth, GstClockTime timeout);
guint bus_log_count (BusLog * log, GstMessageType type, const gchar * name);
/* fails the test if an error was posted */
void bus_log_assert_no_error (BusLog * log);

/* the element named "src" of @pipeline (a reference) */
GstElement *get_src (GstElement * pipeline);
/* @pipeline to NULL (which must succeed at once), then unreffed */
void stop_pipeline (GstElement * pipeline);


G_END_DECLS

#endif
