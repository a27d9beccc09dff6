/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "json-private.h"

gboolean
json_depth_ok (const gchar * text, gsize length, guint max)
{
  gboolean in_string = FALSE, escaped = FALSE;
  guint depth = 0;
  gsize i;

  for (i = 0; i < length; i++) {
    gchar c = text[i];

    if (in_string) {
      if (escaped)
        escaped = FALSE;
      else if (c == '\\')
        escaped = TRUE;
      else if (c == '"')
        in_string = FALSE;
    } else if (c == '"') {
      in_string = TRUE;
    } else if (c == '[' || c == '{') {
      if (++depth > max)
        return FALSE;
    } else if ((c == ']' || c == '}') && depth > 0) {
      depth--;
    }
  }
  return TRUE;
}
