/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstsessionelementcheck
 * @title: Element check
 * @short_description: the elements a program needs, checked before use
 *
 * A program that builds pipelines checks, once at start, that every element
 * it will create exists, so that a missing plugin ends it with one line
 * naming the element and the Debian package to install, instead of failing
 * later, once per session.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "elementcheck.h"

#include <string.h>
#include <gst/gst.h>

/**
 * gst_session_check_elements: (skip)
 * @needs: (array length=n_needs): the elements needed
 * @n_needs: the number of @needs
 * @error: (out) (optional): where to put the error
 *
 * Looks up every element of @needs in the registry.
 *
 * Returns: %TRUE when all exist; otherwise %FALSE with a
 *   %GST_CORE_ERROR_MISSING_PLUGIN error naming each missing element and
 *   its package, e.g. `missing GStreamer element textoverlay (install the
 *   Debian package gstreamer1.0-x)`.
 */
gboolean
gst_session_check_elements (const GstSessionElementNeed * needs,
    guint n_needs, GError ** error)
{
  GString *elements = g_string_new (NULL);
  GString *packages = g_string_new (NULL);
  guint i, n_missing = 0, n_packages = 0;

  for (i = 0; i < n_needs; i++) {
    GstElementFactory *f = gst_element_factory_find (needs[i].element);
    gchar *word;

    if (f) {
      gst_object_unref (f);
      continue;
    }
    g_string_append_printf (elements, "%s%s", n_missing++ ? ", " : "",
        needs[i].element);
    /* each package once */
    word = g_strdup_printf (" %s,", needs[i].package);
    if (!strstr (packages->str, word)) {
      g_string_append (packages, word);
      n_packages++;
    }
    g_free (word);
  }
  if (n_missing == 0) {
    g_string_free (elements, TRUE);
    g_string_free (packages, TRUE);
    return TRUE;
  }
  g_string_truncate (packages, packages->len - 1);      /* the last comma */
  g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN,
      "missing GStreamer element%s %s (install the Debian package%s%s)",
      n_missing > 1 ? "s" : "", elements->str, n_packages > 1 ? "s" : "",
      packages->str);
  g_string_free (elements, TRUE);
  g_string_free (packages, TRUE);
  return FALSE;
}
