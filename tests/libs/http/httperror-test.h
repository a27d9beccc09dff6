/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What the httperror test programs share: response headers from name,
 * value pairs, a text parsed, an item of an error, the decision after the
 * first failure, and the key and bodies more than one of them sends. */

#ifndef __HTTPERROR_TEST_H__
#define __HTTPERROR_TEST_H__

#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/session/session.h>
#include <gst/session/http/http.h>

#define DOCS "https://docs.example.com/errors/#"
#define API_KEY "sk-live-7f3a9c2e11d04b5e8a6f0c9d2b1e4a77"

#define ISE_BODY "{\"detail\": [{\"loc\": [\"body\"], \"msg\": \"Internal " \
  "server error\", \"type\": \"internal_server_error\", \"url\": \"" DOCS \
  "internal_server_error\"}]}"
#define SMALL_BODY "{\"detail\": [{\"loc\": [\"body\", \"image_url\"], " \
  "\"msg\": \"Image too small (min 512x512)\", \"type\": " \
  "\"image_too_small\", \"url\": \"" DOCS "image_too_small\", \"ctx\": " \
  "{\"min_height\": 512, \"min_width\": 512}}]}"

SoupMessageHeaders *make_headers (const gchar * name, ...);

GstSessionHttpError *parse_text (guint status, SoupMessageHeaders * headers,
    const gchar * body);

GstSessionHttpErrorItem *item_at (const GstSessionHttpError * error, guint i);

void assert_first_retry (const GstSessionHttpError * error, gboolean retry);

void assert_contains (const gchar * text, const gchar * part);

#endif
