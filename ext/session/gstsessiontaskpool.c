/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A task pool whose threads are joined: each streaming task of a session's
 * private pipeline runs in a thread of its own, and gst_task_join() (a pad
 * deactivated, the pipeline going to NULL) returns once that thread has
 * ended, its thread-local state freed.
 *
 * Why: GStreamer's default pool hands a stopped task's thread back to
 * GLib's shared pool, where it ends later, on its own (or at
 * gst_task_cleanup_all(), which gst_deinit() and every GStreamer check
 * test call). A thread that ran DTLS (nicesrc's task runs dtlsdec,
 * dtlsenc has its own) frees OpenSSL's per-thread state as it ends; when
 * the process exits meanwhile, OpenSSL's atexit cleanup frees the same
 * state: a SIGSEGV or "double free" after a run that went well, under
 * load mostly (seen in the element tests; a script that checks
 * gst-launch-1.0's exit status would see it too). With this pool every
 * such streaming thread has ended before the session's pipeline reaches
 * NULL. (Not all DTLS work runs in them: webrtcbin's own thread, which
 * GStreamer 1.22 does not join, and dtls's timeouts in a GLib shared pool
 * are left as they are; see docs/reliability.md.)
 *
 * The cost: a thread created and joined per task start, 120-350 µs each
 * measured on this 2-core machine under full CPU load (a loop of 2000
 * g_thread_new + g_thread_join); a whole world session creates 15 tasks
 * in its process (GST_DEBUG=task:5, "Created task"), the stage's among
 * them: at most about 5 ms per session under load.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstsessiontaskpool.h"

struct _GstSessionTaskPool
{
  GstTaskPool parent;
};

G_DEFINE_TYPE (GstSessionTaskPool, gst_session_task_pool, GST_TYPE_TASK_POOL);

typedef struct
{
  GstTaskPoolFunction func;
  gpointer user_data;
} TaskStart;

static gpointer
task_thread (gpointer data)
{
  TaskStart start = *(TaskStart *) data;

  g_free (data);
  start.func (start.user_data);
  return NULL;
}

static void
pool_prepare (GstTaskPool * pool, GError ** error)
{
  /* nothing shared to prepare: a thread per task */
}

static void
pool_cleanup (GstTaskPool * pool)
{
  /* every thread is joined by its task (gst_task_join) */
}

static gpointer
pool_push (GstTaskPool * pool, GstTaskPoolFunction func, gpointer user_data,
    GError ** error)
{
  TaskStart *start = g_new (TaskStart, 1);
  GThread *thread;

  start->func = func;
  start->user_data = user_data;
  /* GstTask names the thread after itself once it runs */
  thread = g_thread_try_new ("sessiontask", task_thread, start, error);
  if (thread == NULL)
    g_free (start);
  return thread;
}

static void
pool_join (GstTaskPool * pool, gpointer id)
{
  g_thread_join (id);
}

static void
pool_dispose_handle (GstTaskPool * pool, gpointer id)
{
  /* a handle given up without a join: its thread ends on its own.
   * (GStreamer 1.22's GstTask never calls this: a task stopped and never
   * joined keeps its thread's handle; pads join their tasks when they
   * deactivate.) */
  g_thread_unref (id);
}

static void
gst_session_task_pool_class_init (GstSessionTaskPoolClass * klass)
{
  GstTaskPoolClass *pool_class = GST_TASK_POOL_CLASS (klass);

  pool_class->prepare = pool_prepare;
  pool_class->cleanup = pool_cleanup;
  pool_class->push = pool_push;
  pool_class->join = pool_join;
  pool_class->dispose_handle = pool_dispose_handle;
}

static void
gst_session_task_pool_init (GstSessionTaskPool * self)
{
}

GstTaskPool *
gst_session_task_pool_new (void)
{
  GstTaskPool *pool = g_object_new (GST_TYPE_SESSION_TASK_POOL, NULL);

  gst_object_ref_sink (pool);
  return pool;
}

static GstBusSyncReply
on_stream_status (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  GstStreamStatusType type;
  GstElement *owner;
  const GValue *v;

  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_STREAM_STATUS)
    return GST_BUS_PASS;
  gst_message_parse_stream_status (msg, &type, &owner);
  v = gst_message_get_stream_status_object (msg);
  if (type == GST_STREAM_STATUS_TYPE_CREATE && v != NULL &&
      G_VALUE_HOLDS (v, GST_TYPE_TASK))
    gst_task_set_pool (g_value_get_object (v), user_data);
  /* posted in the streaming threads, a few per session: nobody reads them.
   * A sync handler that drops a message owns it: unref it, or it keeps its
   * source (nicesrc, the jitterbuffer...) and the task alive for ever. */
  gst_message_unref (msg);
  return GST_BUS_DROP;
}

/* Every task created in the pipeline of @bus from now on runs in @pool:
 * its CREATE stream-status message is posted synchronously, before the
 * task starts (gst_pad_start_task). Replaces the bus's sync handler. */
void
gst_session_task_pool_adopt_tasks (GstBus * bus, GstTaskPool * pool)
{
  gst_bus_set_sync_handler (bus, on_stream_status, gst_object_ref (pool),
      gst_object_unref);
}
