/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gst_session_webhook_key_set_parse(): a JWKS document of Ed25519 keys.
 *
 * Input: the document (not NUL-terminated: the length is given).
 *
 * Invariants beyond "no crash": an error is set exactly when no key set
 * comes back; a key set has 1 to GST_SESSION_WEBHOOK_MAX_KEYS keys; the
 * reasons of skipped entries are valid UTF-8.
 */

#include "fuzz-common.h"

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  GstSessionWebhookKeySet *keys;
  GError *error = NULL;
  gchar *text = fuzz_dup (data, size);

  keys = gst_session_webhook_key_set_parse (text, size, &error);
  fuzz_assert ((keys == NULL) == (error != NULL), "error set iff no keys");
  if (error) {
    fuzz_assert (g_utf8_validate (error->message, -1, NULL),
        "error text not UTF-8");
    g_clear_error (&error);
  }
  if (keys) {
    const gchar *const *skipped;
    guint n = gst_session_webhook_key_set_get_n_keys (keys), i;

    fuzz_assert (n >= 1 && n <= GST_SESSION_WEBHOOK_MAX_KEYS, "%u keys", n);
    skipped = gst_session_webhook_key_set_get_skipped (keys);
    fuzz_assert (skipped != NULL, "no skipped list");
    for (i = 0; skipped[i]; i++)
      fuzz_assert (g_utf8_validate (skipped[i], -1, NULL), "not UTF-8");
    gst_session_webhook_key_set_unref (keys);
  }

  free (text);
  return 0;
}
