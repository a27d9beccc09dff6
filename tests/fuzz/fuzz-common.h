/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What every fuzz target shares: GStreamer initialised once with no
 * plugins to scan, criticals fatal, and a copy of the input in a buffer of
 * its exact size, so reading one byte past the length given is caught.
 */

#ifndef __FUZZ_COMMON_H__
#define __FUZZ_COMMON_H__

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <gst/gst.h>
#include <gst/session/session.h>
#include <gst/session/http/http.h>
#include <gst/session/platform/platform.h>

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

/* Criticals a target tolerates: bugs already known and reported, in code
 * the target cannot fix (a NULL-terminated list of message substrings,
 * set before fuzz_init(); docs/reliability.md lists them). */
static const gchar *const *fuzz_known_criticals;

/* Criticals abort (a g_return_if_fail() that fires on some input is a
 * bug): abort(), not GLib's breakpoint trap, so that libFuzzer saves the
 * input. GStreamer's warnings about some structure names a message type
 * may have ("0.10-style raw video caps") are noise, not findings. */
static GLogWriterOutput
fuzz_log_writer (GLogLevelFlags level, const GLogField * fields,
    gsize n_fields, gpointer user_data)
{
  const gchar *message = "", *domain = "";
  gsize i;

  for (i = 0; i < n_fields; i++) {
    if (strcmp (fields[i].key, "MESSAGE") == 0 && fields[i].length < 0)
      message = fields[i].value;
    else if (strcmp (fields[i].key, "GLIB_DOMAIN") == 0 && fields[i].length < 0)
      domain = fields[i].value;
  }

  if (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL)) {
    for (i = 0; fuzz_known_criticals && fuzz_known_criticals[i]; i++) {
      if (strstr (message, fuzz_known_criticals[i]))
        return G_LOG_WRITER_HANDLED;
    }
    g_printerr ("%s-CRITICAL: %s\n", domain, message);
    abort ();
  }
  if ((level & G_LOG_LEVEL_WARNING) && strcmp (domain, "GStreamer") == 0)
    return G_LOG_WRITER_HANDLED;
  return g_log_writer_default (level, fields, n_fields, user_data);
}

static void
fuzz_init (void)
{
  /* nothing to scan: the library needs the core types only */
  g_setenv ("GST_PLUGIN_SYSTEM_PATH_1_0", "/nonexistent", TRUE);
  g_setenv ("GST_PLUGIN_PATH_1_0", "/nonexistent", TRUE);
  g_setenv ("GST_REGISTRY_FORK", "no", TRUE);
  /* no GIO modules (proxy, dconf, TLS): nothing of theirs is fuzzed, and
   * the leak check of LSan (LLVM 14) can crash on the dynamic TLS of
   * modules loaded with dlopen */
  g_setenv ("GIO_MODULE_DIR", "/nonexistent", TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_log_set_writer_func (fuzz_log_writer, NULL, NULL);
  gst_init (NULL, NULL);
  gst_session_init ();
}

/* A malloc'ed copy of @data of exactly @size bytes (at least one byte is
 * allocated, never read when @size is 0). */
static gchar *
fuzz_dup (const uint8_t * data, size_t size)
{
  gchar *copy = malloc (size ? size : 1);

  if (copy == NULL)
    abort ();
  if (size)
    memcpy (copy, data, size);
  return copy;
}

/* Aborts with a message: a broken invariant is a finding like a crash. */
#define fuzz_assert(cond, ...) G_STMT_START { \
  if (G_UNLIKELY (!(cond))) { \
    g_printerr ("fuzz invariant failed: %s: ", #cond); \
    g_printerr (__VA_ARGS__); \
    g_printerr ("\n"); \
    abort (); \
  } \
} G_STMT_END

#endif
