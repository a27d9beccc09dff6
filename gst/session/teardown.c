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
