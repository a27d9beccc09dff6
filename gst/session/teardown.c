/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstsessionteardown
 * @title: Teardown
 * @short_description: bringing a webrtcbin down safely on GStreamer 1.22
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "teardown.h"

#include <stdint.h>
#include <dlfcn.h>

static void
wait_for_chain (const GValue * item, gpointer user_data)
{
  GstPad *pad = g_value_get_object (item);

  GST_PAD_STREAM_LOCK (pad);
  GST_PAD_STREAM_UNLOCK (pad);
}

/**
 * gst_session_webrtc_stop_channel_senders: (skip)
 * @webrtc: a webrtcbin, still PLAYING
 *
 * GStreamer 1.22.0's sctpenc, going from PAUSED to READY, closes the SCTP
 * socket of the association before it makes its sink pads flush, and the
 * bin brings it down before the data channel's source upstream: a message
 * that the channel's streaming thread is sending at that moment is still
 * in usrsctp_sendv() on the freed socket (a SIGSEGV in that thread). Call
 * this before the pipeline goes down: a flush-start into sctpenc's source
 * pad makes its sink pads flush (nothing more is sent), then taking each
 * sink pad's stream lock waits for a send still in usrsctp.
 */
void
gst_session_webrtc_stop_channel_senders (GstElement * webrtc)
{
  GstIterator *it = gst_bin_iterate_recurse (GST_BIN (webrtc));
  GPtrArray *encoders = g_ptr_array_new_with_free_func (gst_object_unref);
  GValue v = G_VALUE_INIT;
  gboolean done = FALSE;
  guint i;

  while (!done) {
    switch (gst_iterator_next (it, &v)) {
      case GST_ITERATOR_OK:{
        GstElement *e = g_value_get_object (&v);
        GstElementFactory *f = gst_element_get_factory (e);

        if (f && g_str_equal (GST_OBJECT_NAME (f), "sctpenc"))
          g_ptr_array_add (encoders, gst_object_ref (e));
        g_value_reset (&v);
        break;
      }
      case GST_ITERATOR_RESYNC:
        g_ptr_array_set_size (encoders, 0);
        gst_iterator_resync (it);
        break;
      default:
        done = TRUE;
        break;
    }
  }
  g_value_unset (&v);
  gst_iterator_free (it);

  for (i = 0; i < encoders->len; i++) {
    GstElement *enc = g_ptr_array_index (encoders, i);
    GstPad *src = gst_element_get_static_pad (enc, "src");

    if (src) {
      gst_pad_send_event (src, gst_event_new_flush_start ());
      gst_object_unref (src);
    }
    it = gst_element_iterate_sink_pads (enc);
    while (gst_iterator_foreach (it, wait_for_chain, NULL) ==
        GST_ITERATOR_RESYNC)
      gst_iterator_resync (it);
    gst_iterator_free (it);
  }
  g_ptr_array_unref (encoders);
}

/* ---- SCTP associations outlive their last user by a grace period ---- */

/* How long an SCTP association is kept after its last user let it go */
#define SCTP_RELEASE_GRACE (2 * G_TIME_SPAN_SECOND)

typedef struct
{
  GObject *association;
  gint64 due;
} HeldAssociation;

static GMutex held_lock;
static GQueue held = G_QUEUE_INIT;
static void (*association_dispose) (GObject * object);
static GQuark held_quark;

/* Unrefs the associations held past their grace period. Never under
 * held_lock: the last unref disposes, which comes back here. */
static void
release_due (gint64 now)
{
  GSList *due = NULL, *l;
  HeldAssociation *h;

  g_mutex_lock (&held_lock);
  while ((h = g_queue_peek_head (&held)) && h->due <= now) {
    g_queue_pop_head (&held);
    due = g_slist_prepend (due, h->association);
    g_free (h);
  }
  g_mutex_unlock (&held_lock);
  for (l = due; l; l = l->next)
    g_object_unref (l->data);
  g_slist_free (due);
}

static void
held_association_dispose (GObject * object)
{
  gint64 now = g_get_monotonic_time ();
  HeldAssociation *h;

  association_dispose (object);
  if (g_object_get_qdata (object, held_quark) == NULL) {
    /* its last user let it go: kept a while longer (GObject finalizes
     * it only if nothing took a reference during dispose) */
    g_object_set_qdata (object, held_quark, GINT_TO_POINTER (1));
    h = g_new0 (HeldAssociation, 1);
    h->association = g_object_ref (object);
    h->due = now + SCTP_RELEASE_GRACE;
    g_mutex_lock (&held_lock);
    g_queue_push_tail (&held, h);
    g_mutex_unlock (&held_lock);
  }
  release_due (now);
}

/**
 * gst_session_sctp_guard_install: (skip)
 *
 * GStreamer 1.22.0's SCTP plugin hands usrsctp the address of its
 * association object, and usrsctp's timer thread can still call back
 * with it (a packet out, a notification) after the association's last
 * user (sctpenc, sctpdec) let it go and it was freed: a use after free
 * in that thread, seen as "double free or corruption" or "invalid
 * uninstantiatable type in cast to GstSctpAssociation" (tests/elements
 * controls, 1 run in about 50 under load, two webrtcbins in the
 * process). From the call on, each association is kept
 * SCTP_RELEASE_GRACE (2 s) after its last user let it go, with its
 * callbacks already cleared by its users, so that a late call from
 * usrsctp finds a live object that does nothing. The held ones are let
 * go when a later association is let go; the last ones stay until the
 * process ends, which also spares usrsctp a shutdown and a new start
 * between sessions. Does nothing until the plugin has made its first
 * association (returns %FALSE then: call again later, e.g. once a data
 * channel opened); once per process after that.
 *
 * Returns: %TRUE once installed.
 */
gboolean
gst_session_sctp_guard_install (void)
{
  static gsize installed = 0;
  GType type;

  if (g_atomic_pointer_get (&installed))
    return TRUE;
  type = g_type_from_name ("GstSctpAssociation");
  if (type == 0 || !g_type_is_a (type, G_TYPE_OBJECT))
    return FALSE;
  if (g_once_init_enter (&installed)) {
    GObjectClass *klass = g_type_class_ref (type);

    /* kept for the process's life: the vfunc stays ours */
    held_quark = g_quark_from_static_string ("gst-session-sctp-held");
    association_dispose = klass->dispose;
    klass->dispose = held_association_dispose;
    g_once_init_leave (&installed, 1);
  }
  return TRUE;
}

/* ---- OpenSSL's cleanup at exit ---- */

/* OPENSSL_INIT_NO_ATEXIT of OpenSSL 3's <openssl/crypto.h> */
#define OPENSSL_NO_ATEXIT ((uint64_t) 0x00080000)

/**
 * gst_session_openssl_skip_exit_cleanup: (skip)
 *
 * OpenSSL 3 frees its global state from an atexit() handler. A thread
 * of GStreamer's thread pools that handled DTLS and ends just then (an
 * idle pool thread, at any time) runs OpenSSL's per-thread cleanup on
 * that freed state: a SIGSEGV in CRYPTO_THREAD_unlock() at exit, after
 * all the work was done (tests/elements controls: 1 run in about 250
 * under load; gst-launch-1.0 would exit 139 after a good recording).
 * This asks OpenSSL, before anything else in the process initializes it,
 * not to register that handler (OPENSSL_INIT_NO_ATEXIT: the process's
 * memory goes with the process anyway). libcrypto is looked up at run
 * time (the DTLS plugin's own, libssl3 in Debian 12), so that nothing
 * here links it; without it, or when something initialized OpenSSL
 * first, nothing changes. Once per process.
 */
void
gst_session_openssl_skip_exit_cleanup (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    /* kept loaded for the process's life */
    void *crypto = dlopen ("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    int (*init_crypto) (uint64_t opts, const void *settings) = NULL;

    if (crypto)
      *(void **) (&init_crypto) = dlsym (crypto, "OPENSSL_init_crypto");
    if (init_crypto == NULL || !init_crypto (OPENSSL_NO_ATEXIT, NULL))
      GST_INFO ("OpenSSL keeps its cleanup at exit");
    g_once_init_leave (&done, 1);
  }
}

/* ---- SCTP association ids, in turn ---- */

G_LOCK_DEFINE_STATIC (sctp_ids);
static GHashTable *sctp_ids_live;
static guint sctp_id_next;

static void
sctp_id_release (gpointer data, GObject * where_the_object_was)
{
  G_LOCK (sctp_ids);
  g_hash_table_remove (sctp_ids_live, data);
  G_UNLOCK (sctp_ids);
}

/* webrtcbin adds its sctpdec and sctpenc when it sets the descriptions:
 * both get the id before they take an association (READY -> PAUSED) */
static void
sctp_id_element_added (GstBin * webrtc, GstElement * element, gpointer data)
{
  GstElementFactory *factory = gst_element_get_factory (element);

  if (factory && (g_str_equal (GST_OBJECT_NAME (factory), "sctpenc") ||
          g_str_equal (GST_OBJECT_NAME (factory), "sctpdec")))
    g_object_set (element, "sctp-association-id",
        (guint) GPOINTER_TO_INT (data) - 1, NULL);
}

/**
 * gst_session_sctp_ids_assign:
 * @webrtc: a webrtcbin, before it sets a description
 *
 * Gives @webrtc's SCTP association the next id no live webrtcbin of this
 * process holds: webrtcbin's random one may name an association still
 * kept, whose refusal hangs the session's teardown (docs/reliability.md).
 */
void
gst_session_sctp_ids_assign (GstElement * webrtc)
{
  gint id = -1;

  g_return_if_fail (GST_IS_BIN (webrtc));
  G_LOCK (sctp_ids);
  if (sctp_ids_live == NULL)
    sctp_ids_live = g_hash_table_new (NULL, NULL);
  while (id < 0 && g_hash_table_size (sctp_ids_live) < G_MAXUINT16) {
    /* stored + 1: 0 is no key */
    if (!g_hash_table_contains (sctp_ids_live,
            GUINT_TO_POINTER (sctp_id_next + 1)))
      id = sctp_id_next;
    sctp_id_next = (sctp_id_next + 1) % G_MAXUINT16;
  }
  if (id >= 0)
    g_hash_table_add (sctp_ids_live, GINT_TO_POINTER (id + 1));
  G_UNLOCK (sctp_ids);
  if (id < 0)
    return;
  g_signal_connect (webrtc, "element-added",
      G_CALLBACK (sctp_id_element_added), GINT_TO_POINTER (id + 1));
  g_object_weak_ref (G_OBJECT (webrtc), sctp_id_release,
      GINT_TO_POINTER (id + 1));
}
