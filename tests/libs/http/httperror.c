/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The HTTP error model of spec 001 ("Errors", "Rate limit errors"): parsing
 * of every documented error, the retry decision and the backoff policy.
 */

#include <math.h>
#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/session/session.h>
#include <gst/session/http/http.h>

#define DOCS "https://docs.example.com/errors/#"
#define API_KEY "sk-live-7f3a9c2e11d04b5e8a6f0c9d2b1e4a77"

/* ---------------------------------------------------------------------- */
/* Helpers                                                                */
/* ---------------------------------------------------------------------- */

/* Response headers from NULL-terminated name, value pairs. */
static SoupMessageHeaders *
make_headers (const gchar * name, ...)
{
  SoupMessageHeaders *headers =
      soup_message_headers_new (SOUP_MESSAGE_HEADERS_RESPONSE);
  va_list args;

  va_start (args, name);
  while (name) {
    const gchar *value = va_arg (args, const gchar *);

    soup_message_headers_append (headers, name, value);
    name = va_arg (args, const gchar *);
  }
  va_end (args);
  return headers;
}

static GstSessionHttpError *
parse_text (guint status, SoupMessageHeaders * headers, const gchar * body)
{
  return gst_session_http_error_parse (status, headers, body,
      body ? strlen (body) : 0);
}

static GstSessionHttpErrorItem *
item_at (const GstSessionHttpError * error, guint i)
{
  fail_unless (error->items != NULL);
  fail_unless (i < error->items->len, "no item %u (have %u)", i,
      error->items->len);
  return g_ptr_array_index (error->items, i);
}

/* @ctx equals the structure @expected (gst_structure_from_string syntax),
 * or both are NULL. */
static void
assert_ctx (const GstStructure * ctx, const gchar * expected)
{
  GstStructure *want;
  gchar *got;

  if (expected == NULL) {
    fail_unless (ctx == NULL, "unexpected ctx");
    return;
  }
  fail_unless (ctx != NULL, "no ctx, expected %s", expected);
  want = gst_structure_from_string (expected, NULL);
  fail_unless (want != NULL, "bad expectation %s", expected);
  got = gst_structure_to_string (ctx);
  fail_unless (gst_structure_is_equal (ctx, want), "ctx %s, expected %s",
      got, expected);
  g_free (got);
  gst_structure_free (want);
}

static GstSessionRetryPolicy
no_jitter_policy (void)
{
  GstSessionRetryPolicy policy;

  gst_session_retry_policy_init (&policy);
  policy.jitter = 0.0;
  return policy;
}

/* The decision after the first failure with the default policy; when it
 * retries without a rate limit, the delay is the first backoff (500 ms
 * +-20 %). */
static void
assert_first_retry (const GstSessionHttpError * error, gboolean retry)
{
  GstSessionRetryPolicy policy;
  GstSessionRetryDecision d;

  gst_session_retry_policy_init (&policy);
  d = gst_session_http_error_retry_decision (error, &policy, 1);
  fail_unless (d.reason != NULL && *d.reason);
  fail_unless_equals_int (d.retry, retry);
  if (retry) {
    fail_unless (d.delay >= 400 * GST_MSECOND && d.delay <= 600 * GST_MSECOND,
        "delay %" GST_TIME_FORMAT, GST_TIME_ARGS (d.delay));
  } else {
    fail_unless_equals_uint64 (d.delay, 0);
  }
}

static void
assert_contains (const gchar * text, const gchar * part)
{
  fail_unless (strstr (text, part) != NULL, "'%s' not in '%s'", part, text);
}

/* ---------------------------------------------------------------------- */
/* Model-level errors: every row of the spec's table                      */
/* ---------------------------------------------------------------------- */

typedef struct
{
  const gchar *type;            /* the table's type */
  guint status;                 /* the table's status */
  const gchar *retryable;       /* X-Svc-Retryable sent, or NULL */
  const gchar *body;            /* the answer body */
  const gchar *loc;             /* expected JSON pointer */
  const gchar *msg;             /* expected msg */
  const gchar *ctx;             /* expected ctx, or NULL */
  const gchar *input;           /* expected compact input, or NULL */
  gboolean retry;               /* expected decision after attempt 1 */
} ModelRow;

static const ModelRow model_rows[] = {
  {"internal_server_error", 500, NULL,
        "{\"detail\": [{\"loc\": [\"body\"], "
        "\"msg\": \"Internal server error while generating the output.\", "
        "\"type\": \"internal_server_error\", "
        "\"url\": \"" DOCS "internal_server_error\"}]}",
        "/body", "Internal server error while generating the output.",
      NULL, NULL, TRUE},
  {"generation_timeout", 504, NULL,
        "{\"detail\": [{\"loc\": [\"body\"], "
        "\"msg\": \"Generation did not finish within 300 seconds.\", "
        "\"type\": \"generation_timeout\", "
        "\"url\": \"" DOCS "generation_timeout\"}]}",
        "/body", "Generation did not finish within 300 seconds.",
      NULL, NULL, TRUE},
  {"downstream_service_error", 400, NULL,
        "{\"detail\": [{\"loc\": [\"body\"], "
        "\"msg\": \"The partner service rejected the request.\", "
        "\"type\": \"downstream_service_error\", "
        "\"url\": \"" DOCS "downstream_service_error\"}]}",
        "/body", "The partner service rejected the request.",
      NULL, NULL, FALSE},
  {"downstream_service_unavailable", 500, NULL,
        "{\"detail\": [{\"loc\": [\"body\"], "
        "\"msg\": \"The partner service is unavailable.\", "
        "\"type\": \"downstream_service_unavailable\", "
        "\"url\": \"" DOCS "downstream_service_unavailable\"}]}",
      "/body", "The partner service is unavailable.", NULL, NULL, TRUE},
  {"content_policy_violation", 422, "false",
        "{\"detail\": [{\"loc\": [\"body\", \"prompt\"], "
        "\"msg\": \"The content was flagged by a content checker.\", "
        "\"type\": \"content_policy_violation\", "
        "\"url\": \"" DOCS "content_policy_violation\", "
        "\"input\": \"a forbidden prompt\"}]}",
        "/body/prompt", "The content was flagged by a content checker.",
      NULL, "\"a forbidden prompt\"", FALSE},
  {"no_media_generated", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\"], "
        "\"msg\": \"The model did not generate any output.\", "
        "\"type\": \"no_media_generated\", "
        "\"url\": \"" DOCS "no_media_generated\"}]}",
      "/body", "The model did not generate any output.", NULL, NULL, FALSE},
  {"image_too_small", 422, "false",
        "{\"detail\": [{\"loc\": [\"body\", \"image_url\"], "
        "\"msg\": \"Image too small (min 512x512)\", "
        "\"type\": \"image_too_small\", "
        "\"url\": \"" DOCS "image_too_small\", "
        "\"ctx\": {\"min_height\": 512, \"min_width\": 512}, "
        "\"input\": \"https://example.com/tiny.png\"}]}",
        "/body/image_url", "Image too small (min 512x512)",
        "ctx, min_height=(gint64)512, min_width=(gint64)512",
      "\"https://example.com/tiny.png\"", FALSE},
  {"image_too_large", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"image_url\"], "
        "\"msg\": \"Image too large (max 4096x4096)\", "
        "\"type\": \"image_too_large\", "
        "\"url\": \"" DOCS "image_too_large\", "
        "\"ctx\": {\"max_height\": 4096, \"max_width\": 4096}}]}",
        "/body/image_url", "Image too large (max 4096x4096)",
      "ctx, max_height=(gint64)4096, max_width=(gint64)4096", NULL, FALSE},
  {"image_load_error", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"image_url\"], "
        "\"msg\": \"Failed to load the image.\", "
        "\"type\": \"image_load_error\", "
        "\"url\": \"" DOCS "image_load_error\"}]}",
      "/body/image_url", "Failed to load the image.", NULL, NULL, FALSE},
  {"file_download_error", 422, "false",
        "{\"detail\": [{\"loc\": [\"body\", \"audio_url\"], "
        "\"msg\": \"Failed to download the file.\", "
        "\"type\": \"file_download_error\", "
        "\"url\": \"" DOCS "file_download_error\", "
        "\"input\": \"https://example.com/missing.mp3\"}]}",
        "/body/audio_url", "Failed to download the file.", NULL,
      "\"https://example.com/missing.mp3\"", FALSE},
  {"face_detection_error", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"image_url\"], "
        "\"msg\": \"Could not detect a face in the image.\", "
        "\"type\": \"face_detection_error\", "
        "\"url\": \"" DOCS "face_detection_error\"}]}",
        "/body/image_url", "Could not detect a face in the image.", NULL,
      NULL, FALSE},
  {"file_too_large", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"video_url\"], "
        "\"msg\": \"File too large (max 100 MB)\", "
        "\"type\": \"file_too_large\", "
        "\"url\": \"" DOCS "file_too_large\", "
        "\"ctx\": {\"max_size\": 104857600}}]}",
        "/body/video_url", "File too large (max 100 MB)",
      "ctx, max_size=(gint64)104857600", NULL, FALSE},
  {"greater_than", 422, "false",
        "{\"detail\": [{\"loc\": [\"body\", \"num_inference_steps\"], "
        "\"msg\": \"Input should be greater than 0\", "
        "\"type\": \"greater_than\", "
        "\"url\": \"" DOCS "greater_than\", "
        "\"ctx\": {\"gt\": 0}, \"input\": 0}]}",
        "/body/num_inference_steps", "Input should be greater than 0",
      "ctx, gt=(gint64)0", "0", FALSE},
  {"greater_than_equal", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"guidance_scale\"], "
        "\"msg\": \"Input should be greater than or equal to 0.5\", "
        "\"type\": \"greater_than_equal\", "
        "\"url\": \"" DOCS "greater_than_equal\", "
        "\"ctx\": {\"ge\": 0.5}, \"input\": 0.25}]}",
        "/body/guidance_scale",
        "Input should be greater than or equal to 0.5",
      "ctx, ge=(double)0.5", "0.25", FALSE},
  {"less_than", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"seed\"], "
        "\"msg\": \"Input should be less than 4294967296\", "
        "\"type\": \"less_than\", "
        "\"url\": \"" DOCS "less_than\", "
        "\"ctx\": {\"lt\": 4294967296}, \"input\": 5000000000}]}",
        "/body/seed", "Input should be less than 4294967296",
      "ctx, lt=(gint64)4294967296", "5000000000", FALSE},
  {"less_than_equal", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"num_images\"], "
        "\"msg\": \"Input should be less than or equal to 4\", "
        "\"type\": \"less_than_equal\", "
        "\"url\": \"" DOCS "less_than_equal\", "
        "\"ctx\": {\"le\": 4}, \"input\": 8}]}",
        "/body/num_images", "Input should be less than or equal to 4",
      "ctx, le=(gint64)4", "8", FALSE},
  {"multiple_of", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"image_size\", \"width\"], "
        "\"msg\": \"Input should be a multiple of 8\", "
        "\"type\": \"multiple_of\", "
        "\"url\": \"" DOCS "multiple_of\", "
        "\"ctx\": {\"multiple_of\": 8}, \"input\": 1001}]}",
        "/body/image_size/width", "Input should be a multiple of 8",
      "ctx, multiple_of=(gint64)8", "1001", FALSE},
  {"sequence_too_short", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"images\"], "
        "\"msg\": \"List should have at least 1 item\", "
        "\"type\": \"sequence_too_short\", "
        "\"url\": \"" DOCS "sequence_too_short\", "
        "\"ctx\": {\"min_length\": 1}, \"input\": []}]}",
        "/body/images", "List should have at least 1 item",
      "ctx, min_length=(gint64)1", "[]", FALSE},
  {"sequence_too_long", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"images\"], "
        "\"msg\": \"List should have at most 2 items\", "
        "\"type\": \"sequence_too_long\", "
        "\"url\": \"" DOCS "sequence_too_long\", "
        "\"ctx\": {\"max_length\": 2}, "
        "\"input\": [\"https://e.com/a.png\", \"https://e.com/b.png\", "
        "\"https://e.com/c.png\"]}]}",
        "/body/images", "List should have at most 2 items",
        "ctx, max_length=(gint64)2",
      "[\"https://e.com/a.png\",\"https://e.com/b.png\","
        "\"https://e.com/c.png\"]", FALSE},
  {"one_of", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"aspect_ratio\"], "
        "\"msg\": \"Input should be '16:9', '9:16' or '1:1'\", "
        "\"type\": \"one_of\", "
        "\"url\": \"" DOCS "one_of\", "
        "\"ctx\": {\"expected\": [\"16:9\", \"9:16\", \"1:1\"]}, "
        "\"input\": \"4:3\"}]}",
        "/body/aspect_ratio", "Input should be '16:9', '9:16' or '1:1'",
        "ctx, expected=(string)< \"16:9\", \"9:16\", \"1:1\" >", "\"4:3\"",
      FALSE},
  {"feature_not_supported", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"enable_safety_checker\"], "
        "\"msg\": \"This feature is not supported by this model.\", "
        "\"type\": \"feature_not_supported\", "
        "\"url\": \"" DOCS "feature_not_supported\", \"input\": false}]}",
        "/body/enable_safety_checker",
      "This feature is not supported by this model.", NULL, "false", FALSE},
  {"invalid_archive", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"images_data_url\"], "
        "\"msg\": \"The archive could not be read.\", "
        "\"type\": \"invalid_archive\", "
        "\"url\": \"" DOCS "invalid_archive\", "
        "\"ctx\": {\"supported_extensions\": [\".zip\", \".tar\", "
        "\".tar.gz\"]}}]}",
        "/body/images_data_url", "The archive could not be read.",
        "ctx, supported_extensions=(string)< \".zip\", \".tar\", \".tar.gz\" >",
      NULL, FALSE},
  {"archive_file_count_below_minimum", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"images_data_url\"], "
        "\"msg\": \"The archive holds 2 files; at least 4 are needed.\", "
        "\"type\": \"archive_file_count_below_minimum\", "
        "\"url\": \"" DOCS "archive_file_count_below_minimum\", "
        "\"ctx\": {\"min_count\": 4, \"provided_count\": 2, "
        "\"supported_extensions\": [\".jpg\", \".png\"]}}]}",
        "/body/images_data_url",
        "The archive holds 2 files; at least 4 are needed.",
      "ctx, min_count=(gint64)4, provided_count=(gint64)2, "
        "supported_extensions=(string)< \".jpg\", \".png\" >", NULL, FALSE},
  {"archive_file_count_exceeds_maximum", 422, "false",
        "{\"detail\": [{\"loc\": [\"body\", \"images_data_url\"], "
        "\"msg\": \"The archive holds 150 files; at most 100 are allowed.\", "
        "\"type\": \"archive_file_count_exceeds_maximum\", "
        "\"url\": \"" DOCS "archive_file_count_exceeds_maximum\", "
        "\"ctx\": {\"max_count\": 100, \"provided_count\": 150, "
        "\"supported_extensions\": [\".zip\"]}}]}",
        "/body/images_data_url",
        "The archive holds 150 files; at most 100 are allowed.",
      "ctx, max_count=(gint64)100, provided_count=(gint64)150, "
        "supported_extensions=(string)< \".zip\" >", NULL, FALSE},
  {"audio_duration_too_long", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"audio_url\"], "
        "\"msg\": \"Audio too long (max 30 s)\", "
        "\"type\": \"audio_duration_too_long\", "
        "\"url\": \"" DOCS "audio_duration_too_long\", "
        "\"ctx\": {\"max_duration\": 30, \"provided_duration\": 45.5}}]}",
        "/body/audio_url", "Audio too long (max 30 s)",
        "ctx, max_duration=(gint64)30, provided_duration=(double)45.5",
      NULL, FALSE},
  {"audio_duration_too_short", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"audio_url\"], "
        "\"msg\": \"Audio too short (min 2 s)\", "
        "\"type\": \"audio_duration_too_short\", "
        "\"url\": \"" DOCS "audio_duration_too_short\", "
        "\"ctx\": {\"min_duration\": 2, \"provided_duration\": 0.75}}]}",
        "/body/audio_url", "Audio too short (min 2 s)",
        "ctx, min_duration=(gint64)2, provided_duration=(double)0.75",
      NULL, FALSE},
  {"unsupported_audio_format", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"audio_url\"], "
        "\"msg\": \"Unsupported audio format.\", "
        "\"type\": \"unsupported_audio_format\", "
        "\"url\": \"" DOCS "unsupported_audio_format\", "
        "\"ctx\": {\"supported_formats\": [\"mp3\", \"wav\", \"ogg\", "
        "\"flac\"]}, \"input\": \"https://example.com/a.amr\"}]}",
        "/body/audio_url", "Unsupported audio format.",
        "ctx, supported_formats=(string)< \"mp3\", \"wav\", \"ogg\", "
        "\"flac\" >",
      "\"https://example.com/a.amr\"", FALSE},
  {"unsupported_image_format", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"images\", 2], "
        "\"msg\": \"Unsupported image format.\", "
        "\"type\": \"unsupported_image_format\", "
        "\"url\": \"" DOCS "unsupported_image_format\", "
        "\"ctx\": {\"supported_formats\": [\"jpeg\", \"png\", \"webp\"]}}]}",
        "/body/images/2", "Unsupported image format.",
        "ctx, supported_formats=(string)< \"jpeg\", \"png\", \"webp\" >",
      NULL, FALSE},
  {"unsupported_video_format", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"video_url\"], "
        "\"msg\": \"Unsupported video format.\", "
        "\"type\": \"unsupported_video_format\", "
        "\"url\": \"" DOCS "unsupported_video_format\", "
        "\"ctx\": {\"supported_formats\": [\"mp4\", \"mov\", \"webm\"]}}]}",
        "/body/video_url", "Unsupported video format.",
        "ctx, supported_formats=(string)< \"mp4\", \"mov\", \"webm\" >",
      NULL, FALSE},
  {"video_duration_too_long", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"video_url\"], "
        "\"msg\": \"Video too long (max 10 s)\", "
        "\"type\": \"video_duration_too_long\", "
        "\"url\": \"" DOCS "video_duration_too_long\", "
        "\"ctx\": {\"max_duration\": 10, \"provided_duration\": 12.5}}]}",
        "/body/video_url", "Video too long (max 10 s)",
        "ctx, max_duration=(gint64)10, provided_duration=(double)12.5",
      NULL, FALSE},
  {"video_duration_too_short", 422, NULL,
        "{\"detail\": [{\"loc\": [\"body\", \"video_url\"], "
        "\"msg\": \"Video too short (min 2 s)\", "
        "\"type\": \"video_duration_too_short\", "
        "\"url\": \"" DOCS "video_duration_too_short\", "
        "\"ctx\": {\"min_duration\": 2, \"provided_duration\": 1.25}}]}",
        "/body/video_url", "Video too short (min 2 s)",
        "ctx, min_duration=(gint64)2, provided_duration=(double)1.25",
      NULL, FALSE},
};

GST_START_TEST (test_model_table_has_every_row)
{
  /* spec 001 lists 31 model-level types; each appears once above */
  guint i, j;

  fail_unless_equals_int (G_N_ELEMENTS (model_rows), 31);
  for (i = 0; i < G_N_ELEMENTS (model_rows); i++)
    for (j = i + 1; j < G_N_ELEMENTS (model_rows); j++)
      fail_if (strcmp (model_rows[i].type, model_rows[j].type) == 0);
}

GST_END_TEST;

GST_START_TEST (test_model_row)
{
  const ModelRow *row = &model_rows[__i__];
  SoupMessageHeaders *headers;
  GstSessionHttpError *error;
  GstSessionHttpErrorItem *item;
  gchar *url, *text;

  GST_INFO ("row %d: %s", __i__, row->type);
  headers = make_headers ("Content-Type", "application/json",
      "Authorization", "Key " API_KEY, NULL);
  if (row->retryable)
    soup_message_headers_append (headers, "X-Svc-Retryable", row->retryable);

  error = parse_text (row->status, headers, row->body);
  fail_unless (error != NULL);
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_MODEL);
  fail_unless_equals_int (error->status, row->status);
  fail_unless_equals_string (error->error_type, row->type);
  fail_unless_equals_string (error->detail, row->msg);
  fail_unless_equals_int (error->retryable,
      row->retryable ? (strcmp (row->retryable, "true") == 0) : -1);
  fail_unless (error->ratelimit_reset < 0);
  fail_unless_equals_int (error->items->len, 1);

  item = item_at (error, 0);
  url = g_strconcat (DOCS, row->type, NULL);
  fail_unless_equals_string (item->type, row->type);
  fail_unless_equals_string (item->msg, row->msg);
  fail_unless_equals_string (item->url, url);
  fail_unless_equals_string (item->loc, row->loc);
  fail_unless_equals_string (item->input, row->input);
  assert_ctx (item->ctx, row->ctx);
  if (item->ctx)
    fail_unless (gst_structure_has_name (item->ctx, "ctx"));

  assert_first_retry (error, row->retry);
  /* without the header the type table gives the same answer */
  fail_unless_equals_int (gst_session_http_error_type_is_transient (row->type),
      row->retry);

  text = gst_session_http_error_to_string (error);
  assert_contains (text, row->type);
  assert_contains (text, row->msg);
  assert_contains (text, row->loc);
  fail_if (strstr (text, API_KEY) != NULL);

  g_free (text);
  g_free (url);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* Request-level errors: every row of the spec's table                    */
/* ---------------------------------------------------------------------- */

typedef struct
{
  const gchar *error_type;      /* the table's error_type */
  guint status;                 /* the table's typical status */
  const gchar *detail;          /* the body's detail */
  gboolean retry;               /* expected decision after attempt 1 */
} RequestRow;

static const RequestRow request_rows[] = {
  {"request_timeout", 504, "Request processing time exceeded 600 seconds.",
      TRUE},
  {"startup_timeout", 504, "The runner did not start within 300 seconds.",
      TRUE},
  {"runner_scheduling_failure", 503, "No runner could be allocated.", TRUE},
  {"runner_connection_timeout", 503, "Connection to the runner timed out.",
      TRUE},
  {"runner_disconnected", 503,
      "The runner disconnected while processing the request.", TRUE},
  {"runner_connection_refused", 503, "The runner refused the connection.",
      TRUE},
  {"runner_connection_error", 503, "Error connecting to the runner.", TRUE},
  {"runner_incomplete_response", 502,
      "The runner sent an incomplete response.", TRUE},
  {"runner_server_error", 500, "The runner had an internal error.", TRUE},
  {"client_disconnected", 499,
      "The client closed the connection before the response.", FALSE},
  {"client_cancelled", 499, "The client cancelled the request.", FALSE},
  {"bad_request", 400, "Invalid X-Svc-Request-Timeout header: 'soon'.",
      FALSE},
  /* not shown by the spec: retried with backoff (see httperror.c) */
  {"internal_error", 500, "Unexpected internal error.", TRUE},
};

GST_START_TEST (test_request_table_has_every_row)
{
  guint i, j;

  fail_unless_equals_int (G_N_ELEMENTS (request_rows), 13);
  for (i = 0; i < G_N_ELEMENTS (request_rows); i++)
    for (j = i + 1; j < G_N_ELEMENTS (request_rows); j++)
      fail_if (strcmp (request_rows[i].error_type,
              request_rows[j].error_type) == 0);
}

GST_END_TEST;

GST_START_TEST (test_request_row)
{
  const RequestRow *row = &request_rows[__i__];
  SoupMessageHeaders *headers;
  GstSessionHttpError *error;
  gchar *body, *text;

  GST_INFO ("row %d: %s", __i__, row->error_type);
  body = g_strdup_printf ("{\"detail\": \"%s\", \"error_type\": \"%s\"}",
      row->detail, row->error_type);
  headers = make_headers ("Content-Type", "application/json",
      "X-Svc-Error-Type", row->error_type, "X-Svc-Request-Id",
      "3f1c2b7a-0d55-4a7e-9e0f-5b8f3b1c9a10", NULL);

  error = parse_text (row->status, headers, body);
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_REQUEST);
  fail_unless_equals_int (error->status, row->status);
  fail_unless_equals_string (error->error_type, row->error_type);
  fail_unless_equals_string (error->detail, row->detail);
  fail_unless_equals_int (error->items->len, 0);
  fail_unless_equals_int (error->retryable, -1);

  assert_first_retry (error, row->retry);
  fail_unless_equals_int (gst_session_http_error_type_is_transient
      (row->error_type), row->retry);

  text = gst_session_http_error_to_string (error);
  assert_contains (text, row->error_type);
  assert_contains (text, row->detail);

  g_free (text);
  g_free (body);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

GST_START_TEST (test_request_row_without_header)
{
  /* the same answers without X-Svc-Error-Type: the body is enough */
  const RequestRow *row = &request_rows[__i__];
  GstSessionHttpError *error;
  gchar *body;

  body = g_strdup_printf ("{\"error_type\": \"%s\", \"detail\": \"%s\"}",
      row->error_type, row->detail);
  error = parse_text (row->status, NULL, body);
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_REQUEST);
  fail_unless_equals_string (error->error_type, row->error_type);
  fail_unless_equals_string (error->detail, row->detail);
  assert_first_retry (error, row->retry);
  g_free (body);
  gst_session_http_error_free (error);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* X-Svc-Retryable and X-Svc-Error-Type                                   */
/* ---------------------------------------------------------------------- */

#define ISE_BODY "{\"detail\": [{\"loc\": [\"body\"], \"msg\": \"Internal " \
  "server error\", \"type\": \"internal_server_error\", \"url\": \"" DOCS \
  "internal_server_error\"}]}"
#define DSE_BODY "{\"detail\": [{\"loc\": [\"body\"], \"msg\": \"Partner " \
  "failed\", \"type\": \"downstream_service_error\", \"url\": \"" DOCS \
  "downstream_service_error\"}]}"
#define SMALL_BODY "{\"detail\": [{\"loc\": [\"body\", \"image_url\"], " \
  "\"msg\": \"Image too small (min 512x512)\", \"type\": " \
  "\"image_too_small\", \"url\": \"" DOCS "image_too_small\", \"ctx\": " \
  "{\"min_height\": 512, \"min_width\": 512}}]}"

GST_START_TEST (test_retryable_false_overrides_5xx_type)
{
  SoupMessageHeaders *headers = make_headers ("X-Svc-Retryable", "false",
      NULL);
  GstSessionHttpError *error = parse_text (500, headers, ISE_BODY);

  fail_unless_equals_int (error->retryable, 0);
  assert_first_retry (error, FALSE);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

GST_START_TEST (test_retryable_true_overrides_400_type)
{
  SoupMessageHeaders *headers = make_headers ("X-Svc-Retryable", "true",
      NULL);
  GstSessionHttpError *error = parse_text (400, headers, DSE_BODY);

  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_MODEL);
  fail_unless_equals_int (error->retryable, 1);
  assert_first_retry (error, TRUE);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

GST_START_TEST (test_retryable_header_overrides_request_types)
{
  SoupMessageHeaders *yes = make_headers ("X-Svc-Retryable", "true", NULL);
  SoupMessageHeaders *no = make_headers ("X-Svc-Retryable", "false", NULL);
  GstSessionHttpError *error;

  error = parse_text (400, yes,
      "{\"detail\": \"Bad timeout header\", \"error_type\": \"bad_request\"}");
  assert_first_retry (error, TRUE);
  gst_session_http_error_free (error);

  error = parse_text (503, no, "{\"detail\": \"Runner gone\", "
      "\"error_type\": \"runner_disconnected\"}");
  assert_first_retry (error, FALSE);
  gst_session_http_error_free (error);

  /* even on a status that is retried by itself */
  error = parse_text (502, no, "<html>Bad Gateway</html>");
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_OTHER);
  assert_first_retry (error, FALSE);
  gst_session_http_error_free (error);

  soup_message_headers_unref (yes);
  soup_message_headers_unref (no);
}

GST_END_TEST;

GST_START_TEST (test_retryable_header_case_and_junk)
{
  SoupMessageHeaders *headers;
  GstSessionHttpError *error;

  /* header names are case-insensitive, and so are the two values */
  headers = make_headers ("x-svc-retryable", " TRUE ", NULL);
  error = parse_text (422, headers, SMALL_BODY);
  fail_unless_equals_int (error->retryable, 1);
  assert_first_retry (error, TRUE);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);

  headers = make_headers ("X-SVC-RETRYABLE", "False", NULL);
  error = parse_text (500, headers, ISE_BODY);
  fail_unless_equals_int (error->retryable, 0);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);

  /* anything else counts as absent: the type decides */
  headers = make_headers ("X-Svc-Retryable", "maybe", NULL);
  error = parse_text (500, headers, ISE_BODY);
  fail_unless_equals_int (error->retryable, -1);
  assert_first_retry (error, TRUE);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);

  headers = make_headers ("X-Svc-Retryable", "", NULL);
  error = parse_text (422, headers, SMALL_BODY);
  fail_unless_equals_int (error->retryable, -1);
  assert_first_retry (error, FALSE);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

GST_START_TEST (test_error_type_header_wins_when_body_lacks_it)
{
  SoupMessageHeaders *headers = make_headers ("x-svc-error-type",
      "runner_scheduling_failure", NULL);
  GstSessionHttpError *error = parse_text (503, headers,
      "{\"detail\": \"No runner could be allocated.\"}");

  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_REQUEST);
  fail_unless_equals_string (error->error_type, "runner_scheduling_failure");
  fail_unless_equals_string (error->detail, "No runner could be allocated.");
  assert_first_retry (error, TRUE);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

GST_START_TEST (test_error_type_in_body_and_header)
{
  SoupMessageHeaders *headers;
  GstSessionHttpError *error;

  /* the usual case: the header repeats the body */
  headers = make_headers ("X-Svc-Error-Type", "bad_request", NULL);
  error = parse_text (400, headers,
      "{\"detail\": \"Invalid timeout\", \"error_type\": \"bad_request\"}");
  fail_unless_equals_string (error->error_type, "bad_request");
  assert_first_retry (error, FALSE);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);

  /* when they differ, the body wins */
  headers = make_headers ("X-Svc-Error-Type", "startup_timeout", NULL);
  error = parse_text (504, headers,
      "{\"detail\": \"Too slow\", \"error_type\": \"request_timeout\"}");
  fail_unless_equals_string (error->error_type, "request_timeout");
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);

  /* an error_type of the wrong type in the body: the header gives it */
  headers = make_headers ("X-Svc-Error-Type", "client_cancelled", NULL);
  error = parse_text (499, headers,
      "{\"detail\": \"Cancelled\", \"error_type\": 17}");
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_REQUEST);
  fail_unless_equals_string (error->error_type, "client_cancelled");
  assert_first_retry (error, FALSE);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

GST_START_TEST (test_error_type_header_alone)
{
  SoupMessageHeaders *headers;
  GstSessionHttpError *error;

  /* a plain-text body with the header is still a request-level error */
  headers = make_headers ("X-Svc-Error-Type", "runner_connection_refused",
      "Content-Type", "text/plain", NULL);
  error = parse_text (503, headers, "Service Unavailable");
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_REQUEST);
  fail_unless_equals_int (error->status, 503);
  fail_unless_equals_string (error->error_type, "runner_connection_refused");
  fail_unless (error->detail == NULL);
  assert_first_retry (error, TRUE);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);

  /* a value that is no type name is ignored */
  headers = make_headers ("X-Svc-Error-Type", "bad type; <script>", NULL);
  error = parse_text (503, headers, "Service Unavailable");
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_OTHER);
  fail_unless (error->error_type == NULL);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

GST_START_TEST (test_model_body_keeps_item_type_over_header)
{
  SoupMessageHeaders *headers = make_headers ("X-Svc-Error-Type",
      "internal_error", NULL);
  GstSessionHttpError *error = parse_text (422, headers, SMALL_BODY);

  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_MODEL);
  fail_unless_equals_string (error->error_type, "image_too_small");
  assert_first_retry (error, FALSE);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* Rate limits                                                            */
/* ---------------------------------------------------------------------- */

GST_START_TEST (test_ratelimit_reset_is_the_delay)
{
  SoupMessageHeaders *headers = make_headers ("x-ratelimit-reset", "12",
      NULL);
  GstSessionHttpError *error = parse_text (429, headers, NULL);
  GstSessionRetryPolicy policy;
  GstSessionRetryDecision d;
  gchar *text;

  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT);
  fail_unless_equals_int (error->status, 429);
  fail_unless (error->ratelimit_reset == 12.0);

  gst_session_retry_policy_init (&policy);
  d = gst_session_http_error_retry_decision (error, &policy, 1);
  fail_unless (d.retry);
  fail_unless_equals_uint64 (d.delay, 12 * GST_SECOND);
  /* not the backoff, at any attempt, and not capped at max_delay */
  d = gst_session_http_error_retry_decision (error, &policy, 4);
  fail_unless (d.retry);
  fail_unless_equals_uint64 (d.delay, 12 * GST_SECOND);

  text = gst_session_http_error_to_string (error);
  assert_contains (text, "429");
  assert_contains (text, "rate limited");
  assert_contains (text, "12 s");
  g_free (text);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

GST_START_TEST (test_ratelimit_reset_values)
{
  static const struct
  {
    const gchar *value;
    gdouble reset;
  } cases[] = {
    {"0", 0.0}, {"0.5", 0.5}, {" 45 ", 45.0}, {"59", 59.0},
    {"-5", -1}, {"soon", -1}, {"", -1}, {"12abc", -1}, {"nan", -1},
    {"inf", -1}, {"1e999", -1},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    SoupMessageHeaders *headers = make_headers ("X-RateLimit-Reset",
        cases[i].value, NULL);
    GstSessionHttpError *error = parse_text (429, headers, "");
    GstSessionRetryDecision d;

    fail_unless (error->ratelimit_reset == cases[i].reset,
        "'%s' gave %g", cases[i].value, error->ratelimit_reset);
    d = gst_session_http_error_retry_decision (error, NULL, 1);
    fail_unless (d.retry);
    if (cases[i].reset >= 0)
      fail_unless_equals_uint64 (d.delay,
          (GstClockTime) (cases[i].reset * GST_SECOND));
    gst_session_http_error_free (error);
    soup_message_headers_unref (headers);
  }
}

GST_END_TEST;

GST_START_TEST (test_ratelimit_huge_reset_is_bounded)
{
  SoupMessageHeaders *headers = make_headers ("x-ratelimit-reset",
      "1e300", NULL);
  GstSessionHttpError *error = parse_text (429, headers, NULL);
  GstSessionRetryDecision d;

  d = gst_session_http_error_retry_decision (error, NULL, 1);
  fail_unless (d.retry);
  fail_unless_equals_uint64 (d.delay, 24 * 3600 * GST_SECOND);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

GST_START_TEST (test_ratelimit_without_reset_backs_off)
{
  GstSessionHttpError *error = parse_text (429, NULL, "Too Many Requests");

  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT);
  fail_unless (error->ratelimit_reset < 0);
  assert_first_retry (error, TRUE);
  gst_session_http_error_free (error);
}

GST_END_TEST;

GST_START_TEST (test_ratelimit_keeps_request_body)
{
  SoupMessageHeaders *headers = make_headers ("x-ratelimit-reset", "30",
      "X-Svc-Error-Type", "rate_limited", NULL);
  GstSessionHttpError *error = parse_text (429, headers,
      "{\"detail\": \"Too many requests for GET /runners\", "
      "\"error_type\": \"rate_limited\"}");
  GstSessionRetryDecision d;
  gchar *text;

  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT);
  fail_unless_equals_string (error->error_type, "rate_limited");
  fail_unless_equals_string (error->detail,
      "Too many requests for GET /runners");
  d = gst_session_http_error_retry_decision (error, NULL, 1);
  fail_unless (d.retry);
  fail_unless_equals_uint64 (d.delay, 30 * GST_SECOND);
  text = gst_session_http_error_to_string (error);
  assert_contains (text, "rate_limited");
  assert_contains (text, "Too many requests for GET /runners");
  g_free (text);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

GST_START_TEST (test_ratelimit_keeps_model_body)
{
  SoupMessageHeaders *headers = make_headers ("x-ratelimit-reset", "3",
      NULL);
  GstSessionHttpError *error = parse_text (429, headers, ISE_BODY);
  GstSessionRetryDecision d;

  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT);
  fail_unless_equals_string (error->error_type, "internal_server_error");
  fail_unless_equals_int (error->items->len, 1);
  d = gst_session_http_error_retry_decision (error, NULL, 1);
  fail_unless_equals_uint64 (d.delay, 3 * GST_SECOND);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

GST_START_TEST (test_ratelimit_with_retryable_header)
{
  SoupMessageHeaders *headers;
  GstSessionHttpError *error;
  GstSessionRetryDecision d;

  headers = make_headers ("x-ratelimit-reset", "7", "X-Svc-Retryable",
      "false", NULL);
  error = parse_text (429, headers, NULL);
  d = gst_session_http_error_retry_decision (error, NULL, 1);
  fail_if (d.retry);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);

  /* true: retried, still after the window */
  headers = make_headers ("x-ratelimit-reset", "7", "X-Svc-Retryable",
      "true", NULL);
  error = parse_text (429, headers, NULL);
  d = gst_session_http_error_retry_decision (error, NULL, 1);
  fail_unless (d.retry);
  fail_unless_equals_uint64 (d.delay, 7 * GST_SECOND);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

GST_START_TEST (test_ratelimit_respects_max_attempts)
{
  SoupMessageHeaders *headers = make_headers ("x-ratelimit-reset", "5",
      NULL);
  GstSessionHttpError *error = parse_text (429, headers, NULL);
  GstSessionRetryPolicy policy;
  GstSessionRetryDecision d;

  gst_session_retry_policy_init (&policy);
  policy.max_attempts = 2;
  d = gst_session_http_error_retry_decision (error, &policy, 1);
  fail_unless (d.retry);
  d = gst_session_http_error_retry_decision (error, &policy, 2);
  fail_if (d.retry);
  fail_unless_equals_uint64 (d.delay, 0);
  assert_contains (d.reason, "attempts exhausted");
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* Bodies of no known form                                                */
/* ---------------------------------------------------------------------- */

static void
assert_other (guint status, const gchar * body, gsize length)
{
  GstSessionHttpError *error;
  gchar *text;

  error = gst_session_http_error_parse (status, NULL, body, length);
  fail_unless (error != NULL);
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_OTHER);
  fail_unless_equals_int (error->status, status);
  fail_unless (error->error_type == NULL);
  fail_unless (error->detail == NULL);
  fail_unless (error->items != NULL);
  fail_unless_equals_int (error->items->len, 0);
  text = gst_session_http_error_to_string (error);
  fail_unless (g_str_has_prefix (text, "HTTP "), "%s", text);
  g_free (text);
  gst_session_http_error_free (error);
}

static void
assert_other_text (guint status, const gchar * body)
{
  assert_other (status, body, strlen (body));
}

GST_START_TEST (test_html_502_page)
{
  const gchar *page = "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway"
      "</title></head><body><center><h1>502 Bad Gateway</h1></center><hr>"
      "<center>nginx</center></body></html>\n";
  GstSessionHttpError *error = parse_text (502, NULL, page);
  gchar *text;

  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_OTHER);
  fail_unless_equals_int (error->status, 502);
  assert_first_retry (error, TRUE);
  text = gst_session_http_error_to_string (error);
  fail_unless_equals_string (text, "HTTP 502 Bad Gateway");
  g_free (text);
  gst_session_http_error_free (error);
}

GST_END_TEST;

GST_START_TEST (test_empty_bodies)
{
  assert_other (500, NULL, 0);
  assert_other_text (500, "");
  assert_other_text (503, "   \n\t ");
  /* a NULL body with a length is taken as empty */
  assert_other (504, NULL, 100);
}

GST_END_TEST;

GST_START_TEST (test_json_of_no_known_form)
{
  assert_other_text (422, "[{\"loc\": [\"body\"], \"msg\": \"m\", "
      "\"type\": \"image_too_small\"}]");
  assert_other_text (500, "\"just a string\"");
  assert_other_text (500, "42");
  assert_other_text (500, "null");
  assert_other_text (500, "{}");
  assert_other_text (500, "{\"message\": \"Internal Server Error\"}");
  assert_other_text (502, "{\"detail\": [1, \"two\", null, [3]]}");
  assert_other_text (422, "{\"detail\": []}");
}

GST_END_TEST;

GST_START_TEST (test_detail_of_wrong_type)
{
  static const gchar *bodies[] = {
    "{\"detail\": 42}",
    "{\"detail\": null}",
    "{\"detail\": true}",
    "{\"detail\": {\"msg\": \"nested\", \"type\": \"image_too_small\"}}",
    "{\"detail\": 1.5, \"error_type\": null}",
    "{\"detail\": {}, \"error_type\": []}",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bodies); i++)
    assert_other (500, bodies[i], strlen (bodies[i]));
}

GST_END_TEST;

GST_START_TEST (test_invalid_json_and_bytes)
{
  static const gchar nul_inside[] = "{\"detail\": \"a\0b\"}";
  static const gchar bad_utf8[] = "{\"detail\": \"\xff\xfe\xc3\"}";

  assert_other_text (500, "{\"detail\": ");
  assert_other_text (500, "{\"detail\": \"unterminated");
  assert_other_text (500, "{detail: 'single'}");
  assert_other_text (500, "{\"detail\": \"x\"} trailing");
  assert_other (500, nul_inside, sizeof (nul_inside) - 1);
  assert_other (500, bad_utf8, sizeof (bad_utf8) - 1);
}

GST_END_TEST;

GST_START_TEST (test_body_length_is_respected)
{
  /* the body need not end with NUL; bytes past the length are not read */
  static const gchar buffer[] =
      "{\"detail\": \"Gone\", \"error_type\": \"runner_disconnected\"}GARBAGE";
  gsize length = strlen (buffer) - strlen ("GARBAGE");
  GstSessionHttpError *error;

  error = gst_session_http_error_parse (503, NULL, buffer, length);
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_REQUEST);
  fail_unless_equals_string (error->error_type, "runner_disconnected");
  gst_session_http_error_free (error);

  /* cut inside the JSON: not JSON any more */
  assert_other (503, buffer, 10);
}

GST_END_TEST;

GST_START_TEST (test_missing_fields_in_items)
{
  GstSessionHttpError *error;
  GstSessionHttpErrorItem *item;

  error = parse_text (422, NULL, "{\"detail\": [{}]}");
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_MODEL);
  fail_unless_equals_int (error->items->len, 1);
  item = item_at (error, 0);
  fail_unless (item->type == NULL && item->msg == NULL && item->url == NULL);
  fail_unless (item->loc == NULL && item->ctx == NULL && item->input == NULL);
  fail_unless (error->error_type == NULL && error->detail == NULL);
  /* an unknown type: the status decides (422: no) */
  assert_first_retry (error, FALSE);
  gst_session_http_error_free (error);

  /* fields of the wrong types are dropped, the rest is kept */
  error = parse_text (503, NULL, "{\"detail\": [{\"loc\": 5, \"msg\": 7, "
      "\"type\": [\"x\"], \"url\": {}, \"ctx\": [1, 2], \"input\": null}, "
      "\"not an object\", {\"msg\": \"only a msg\"}]}");
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_MODEL);
  fail_unless_equals_int (error->items->len, 2);
  item = item_at (error, 0);
  fail_unless (item->type == NULL && item->msg == NULL && item->url == NULL);
  fail_unless (item->loc == NULL && item->ctx == NULL);
  fail_unless_equals_string (item->input, "null");
  fail_unless_equals_string (item_at (error, 1)->msg, "only a msg");
  /* unknown types on a 503: retried */
  assert_first_retry (error, TRUE);
  gst_session_http_error_free (error);
}

GST_END_TEST;

static gchar *
nested (const gchar * prefix, const gchar * open, guint depth,
    const gchar * middle, const gchar * close, const gchar * suffix)
{
  GString *s = g_string_new (prefix);
  guint i;

  for (i = 0; i < depth; i++)
    g_string_append (s, open);
  g_string_append (s, middle);
  for (i = 0; i < depth; i++)
    g_string_append (s, close);
  g_string_append (s, suffix);
  return g_string_free (s, FALSE);
}

GST_START_TEST (test_deeply_nested_json)
{
  gchar *body;

  body = nested ("", "[", 10000, "", "]", "");
  assert_other (500, body, strlen (body));
  g_free (body);

  body = nested ("{\"detail\": ", "[", 10000, "1", "]", "}");
  assert_other (422, body, strlen (body));
  g_free (body);

  body = nested ("{\"detail\": [{\"type\": \"t\", \"ctx\": ", "{\"a\": ",
      10000, "1", "}", "}]}");
  assert_other (422, body, strlen (body));
  g_free (body);

  /* unbalanced: only opening brackets */
  body = nested ("", "{\"a\":[", 5000, "", "", "");
  assert_other (400, body, strlen (body));
  g_free (body);
}

GST_END_TEST;

GST_START_TEST (test_nesting_limit_boundary)
{
  GstSessionHttpError *error;
  gchar *body;

  /* root object 1, detail array 2, item 3, ctx 4: 28 more objects reach
   * GST_SESSION_HTTP_ERROR_MAX_DEPTH (32) */
  body = nested ("{\"detail\": [{\"type\": \"t\", \"ctx\": {\"k\": ",
      "{\"a\": ", GST_SESSION_HTTP_ERROR_MAX_DEPTH - 4, "1", "}", "}}]}");
  error = parse_text (422, NULL, body);
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_MODEL);
  fail_unless (item_at (error, 0)->ctx != NULL);
  gst_session_http_error_free (error);
  g_free (body);

  body = nested ("{\"detail\": [{\"type\": \"t\", \"ctx\": {\"k\": ",
      "{\"a\": ", GST_SESSION_HTTP_ERROR_MAX_DEPTH - 3, "1", "}", "}}]}");
  assert_other (422, body, strlen (body));
  g_free (body);
}

GST_END_TEST;

GST_START_TEST (test_brackets_in_strings_do_not_count)
{
  GstSessionHttpError *error;
  gchar *body;

  body = nested ("{\"detail\": \"", "[{", 1000, "\\\" still [ in {",
      "}]", "\", \"error_type\": \"bad_request\"}");
  error = parse_text (400, NULL, body);
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_REQUEST);
  fail_unless_equals_string (error->error_type, "bad_request");
  fail_unless (g_str_has_prefix (error->detail, "[{[{"));
  gst_session_http_error_free (error);
  g_free (body);
}

GST_END_TEST;

GST_START_TEST (test_huge_body)
{
  GstSessionHttpError *error;
  GString *s;
  gchar *text;

  /* just over the limit: not parsed */
  s = g_string_new ("{\"error_type\": \"internal_error\", \"detail\": \"");
  while (s->len <= GST_SESSION_HTTP_ERROR_MAX_BODY)
    g_string_append (s, "0123456789abcdef");
  g_string_append (s, "\"}");
  assert_other (500, s->str, s->len);

  /* under the limit: parsed, and the text stays short */
  g_string_truncate (s, GST_SESSION_HTTP_ERROR_MAX_BODY - 2);
  g_string_append (s, "\"}");
  error = gst_session_http_error_parse (500, NULL, s->str, s->len);
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_REQUEST);
  fail_unless_equals_string (error->error_type, "internal_error");
  text = gst_session_http_error_to_string (error);
  fail_unless (strlen (text) < 1024, "%" G_GSIZE_FORMAT, strlen (text));
  assert_contains (text, "internal_error");
  g_free (text);
  gst_session_http_error_free (error);
  g_string_free (s, TRUE);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* loc, ctx, input                                                        */
/* ---------------------------------------------------------------------- */

GST_START_TEST (test_loc_json_pointer)
{
  static const struct
  {
    const gchar *loc;
    const gchar *pointer;
  } cases[] = {
    {"[\"body\", \"prompt\"]", "/body/prompt"},
    {"[\"body\", \"images\", 0]", "/body/images/0"},
    {"[\"body\", \"images\", 12, \"url\"]", "/body/images/12/url"},
    {"[\"body\"]", "/body"},
    {"[\"body\", \"a/b\", \"m~n\", \"~/\"]", "/body/a~1b/m~0n/~0~1"},
    {"[]", ""},
    {"\"body\"", "/body"},
    {"[\"body\", true, null, 1.5]", "/body/true/null/1.5"},
    {"[\"body\", \"\"]", "/body/"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *body = g_strdup_printf ("{\"detail\": [{\"loc\": %s, \"msg\": "
        "\"m\", \"type\": \"less_than\"}]}", cases[i].loc);
    GstSessionHttpError *error = parse_text (422, NULL, body);

    fail_unless_equals_string (item_at (error, 0)->loc, cases[i].pointer);
    gst_session_http_error_free (error);
    g_free (body);
  }
}

GST_END_TEST;

/* Only the ctx keys spec 001 lists become fields (GStreamer keeps every
 * field name for the life of the process): the value types are checked
 * under such keys, whatever the error type. */
GST_START_TEST (test_ctx_value_types)
{
  GstSessionHttpError *error;
  const GstStructure *ctx;
  const GValue *v;

  error = parse_text (422, NULL, "{\"detail\": [{\"loc\": [\"body\"], "
      "\"msg\": \"m\", \"type\": \"custom\", \"ctx\": {\"gt\": -3, "
      "\"ge\": 2.5, \"expected\": \"text\", \"lt\": true, \"le\": null, "
      "\"supported_formats\": [1, \"two\", [3.5]], "
      "\"multiple_of\": {\"k\": \"v\", \"m\": 9}}}]}");
  ctx = item_at (error, 0)->ctx;
  fail_unless (ctx != NULL);
  fail_unless (gst_structure_has_name (ctx, "ctx"));
  fail_unless_equals_int (gst_structure_n_fields (ctx), 7);

  v = gst_structure_get_value (ctx, "gt");
  fail_unless (G_VALUE_HOLDS_INT64 (v));
  fail_unless_equals_int64 (g_value_get_int64 (v), -3);
  v = gst_structure_get_value (ctx, "ge");
  fail_unless (G_VALUE_HOLDS_DOUBLE (v));
  fail_unless (g_value_get_double (v) == 2.5);
  v = gst_structure_get_value (ctx, "expected");
  fail_unless (G_VALUE_HOLDS_STRING (v));
  fail_unless_equals_string (g_value_get_string (v), "text");
  v = gst_structure_get_value (ctx, "lt");
  fail_unless (G_VALUE_HOLDS_BOOLEAN (v));
  fail_unless (g_value_get_boolean (v));
  v = gst_structure_get_value (ctx, "le");
  fail_unless (G_VALUE_HOLDS_STRING (v));
  fail_unless (g_value_get_string (v) == NULL);

  /* an array of mixed types: its JSON text */
  v = gst_structure_get_value (ctx, "supported_formats");
  fail_unless (G_VALUE_HOLDS_STRING (v));
  fail_unless_equals_string (g_value_get_string (v), "[1,\"two\",[3.5]]");

  /* an object: its JSON text (its names are the sender's) */
  v = gst_structure_get_value (ctx, "multiple_of");
  fail_unless (G_VALUE_HOLDS_STRING (v));
  fail_unless_equals_string (g_value_get_string (v), "{\"k\":\"v\",\"m\":9}");

  gst_session_http_error_free (error);
}

GST_END_TEST;

GST_START_TEST (test_ctx_arrays)
{
  /* elements of a GST_TYPE_ARRAY share one type */
  GstSessionHttpError *error = parse_text (422, NULL,
      "{\"detail\": [{\"type\": \"custom\", \"ctx\": {"
      "\"min_height\": [1, 2], \"min_width\": [1, 2.5], "
      "\"max_height\": [\"a\", \"b\"], \"max_width\": [\"a\", null], "
      "\"max_size\": [[\"x\"], [], [\"y\", \"z\"]], "
      "\"gt\": [{\"k\": 1}, {\"k\": 2}], \"ge\": [], "
      "\"lt\": [1, \"a\"], \"le\": [null, 1], "
      "\"multiple_of\": [[1], [\"a\"]], \"min_length\": [1, [2]]}}]}");
  const GstStructure *ctx = item_at (error, 0)->ctx;

  fail_unless (ctx != NULL);
  assert_ctx (ctx, "ctx, min_height=(gint64)< 1, 2 >, "
      "min_width=(double)< 1.0, 2.5 >, max_height=(string)< a, b >, "
      "max_width=(string)\"[\\\"a\\\",null]\", "
      "max_size=< < \"x\" >, < >, < \"y\", \"z\" > >, "
      "gt=(string)< \"\\{\\\"k\\\":1\\}\", \"\\{\\\"k\\\":2\\}\" >, "
      "ge=< >, lt=(string)\"[1,\\\"a\\\"]\", le=(string)\"[null,1]\", "
      "multiple_of=(string)\"[[1],[\\\"a\\\"]]\", "
      "min_length=(string)\"[1,[2]]\"");
  /* and the whole ctx serialises without a warning */
  g_free (gst_structure_to_string (ctx));
  gst_session_http_error_free (error);
}

GST_END_TEST;

GST_START_TEST (test_ctx_odd_keys)
{
  /* keys spec 001 does not list, valid structure names or not, are kept as
   * JSON text, not made field names */
  GstSessionHttpError *error = parse_text (422, NULL,
      "{\"detail\": [{\"type\": \"custom\", \"ctx\": {\"\": 1, "
      "\"with space\": {\"9 bad name\": {}}, \"max_size\": 5, "
      "\"video/x-raw-yuv\": {}}}]}");
  const GstStructure *ctx = item_at (error, 0)->ctx;

  fail_unless (ctx != NULL);
  fail_unless_equals_int (gst_structure_n_fields (ctx), 2);
  fail_unless_equals_string (gst_structure_get_string (ctx,
          GST_SESSION_MESSAGE_OTHER_FIELDS),
      "{\"\":1,\"with space\":{\"9 bad name\":{}},\"video/x-raw-yuv\":{}}");
  fail_unless (G_VALUE_HOLDS_INT64 (gst_structure_get_value (ctx, "max_size")));
  gst_session_http_error_free (error);
}

GST_END_TEST;

GST_START_TEST (test_input_is_compact_json)
{
  GstSessionHttpError *error = parse_text (422, NULL,
      "{\"detail\": [{\"loc\": [\"body\"], \"msg\": \"m\", \"type\": "
      "\"one_of\", \"input\": {\"a\" :  [1,  2, {\"b\": null}],\n"
      " \"c\": \"x\"}}]}");

  fail_unless_equals_string (item_at (error, 0)->input,
      "{\"a\":[1,2,{\"b\":null}],\"c\":\"x\"}");
  gst_session_http_error_free (error);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* Statuses without a known type                                          */
/* ---------------------------------------------------------------------- */

GST_START_TEST (test_auth_errors_not_retried)
{
  static const guint statuses[] = { 401, 403 };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (statuses); i++) {
    GstSessionHttpError *error;

    error = parse_text (statuses[i], NULL, "{\"detail\": \"Invalid key\"}");
    fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_REQUEST);
    assert_first_retry (error, FALSE);
    gst_session_http_error_free (error);

    error = parse_text (statuses[i], NULL, "Unauthorized");
    assert_first_retry (error, FALSE);
    gst_session_http_error_free (error);

    /* even with a transient type */
    error = parse_text (statuses[i], NULL, "{\"detail\": \"x\", "
        "\"error_type\": \"runner_server_error\"}");
    assert_first_retry (error, FALSE);
    gst_session_http_error_free (error);
  }
}

GST_END_TEST;

GST_START_TEST (test_status_rule)
{
  static const struct
  {
    guint status;
    gboolean retry;
  } cases[] = {
    {408, TRUE}, {500, TRUE}, {502, TRUE}, {503, TRUE}, {504, TRUE},
    {400, FALSE}, {404, FALSE}, {409, FALSE}, {413, FALSE}, {422, FALSE},
    {499, FALSE}, {501, FALSE}, {505, FALSE}, {0, FALSE}, {302, FALSE},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstSessionHttpError *error = parse_text (cases[i].status, NULL,
        "<html>error</html>");

    GST_INFO ("status %u", cases[i].status);
    fail_unless_equals_int (error->status, cases[i].status);
    assert_first_retry (error, cases[i].retry);
    gst_session_http_error_free (error);
  }
}

GST_END_TEST;

GST_START_TEST (test_unknown_request_type_uses_status)
{
  GstSessionHttpError *error;

  error = parse_text (503, NULL,
      "{\"detail\": \"?\", \"error_type\": \"brand_new_type\"}");
  assert_first_retry (error, TRUE);
  gst_session_http_error_free (error);

  error = parse_text (418, NULL,
      "{\"detail\": \"?\", \"error_type\": \"brand_new_type\"}");
  assert_first_retry (error, FALSE);
  gst_session_http_error_free (error);
}

GST_END_TEST;

GST_START_TEST (test_mixed_items_not_retried)
{
  /* one transient item and one invalid input: retrying cannot help */
  GstSessionHttpError *error = parse_text (500, NULL,
      "{\"detail\": [{\"loc\": [\"body\"], \"msg\": \"Internal\", "
      "\"type\": \"internal_server_error\"}, {\"loc\": [\"body\", \"seed\"], "
      "\"msg\": \"Too big\", \"type\": \"less_than\", \"ctx\": {\"lt\": 10}}]}");

  fail_unless_equals_int (error->items->len, 2);
  assert_first_retry (error, FALSE);
  gst_session_http_error_free (error);
}

GST_END_TEST;

GST_START_TEST (test_type_is_transient)
{
  fail_if (gst_session_http_error_type_is_transient (NULL));
  fail_if (gst_session_http_error_type_is_transient (""));
  fail_if (gst_session_http_error_type_is_transient ("brand_new_type"));
  fail_if (gst_session_http_error_type_is_transient ("REQUEST_TIMEOUT"));
  fail_unless (gst_session_http_error_type_is_transient ("request_timeout"));
  fail_unless (gst_session_http_error_type_is_transient ("internal_error"));
  fail_unless (gst_session_http_error_type_is_transient
      ("downstream_service_unavailable"));
  fail_if (gst_session_http_error_type_is_transient ("client_cancelled"));
  fail_if (gst_session_http_error_type_is_transient ("image_too_small"));
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* Retry policy                                                           */
/* ---------------------------------------------------------------------- */

GST_START_TEST (test_policy_defaults)
{
  GstSessionRetryPolicy policy;

  gst_session_retry_policy_init (&policy);
  fail_unless_equals_int (policy.max_attempts, 5);
  fail_unless_equals_uint64 (policy.initial_delay, 500 * GST_MSECOND);
  fail_unless_equals_uint64 (policy.max_delay, 30 * GST_SECOND);
  fail_unless (policy.multiplier == 2.0);
  fail_unless (policy.jitter == 0.2);
}

GST_END_TEST;

GST_START_TEST (test_backoff_grows_and_is_capped)
{
  static const GstClockTime expected[] = {
    500 * GST_MSECOND, 500 * GST_MSECOND, GST_SECOND, 2 * GST_SECOND,
    4 * GST_SECOND, 8 * GST_SECOND, 16 * GST_SECOND, 30 * GST_SECOND,
    30 * GST_SECOND, 30 * GST_SECOND,
  };
  GstSessionRetryPolicy policy = no_jitter_policy ();
  guint attempt;

  /* attempt 0 counts as 1 */
  for (attempt = 0; attempt < G_N_ELEMENTS (expected); attempt++)
    fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy,
            attempt), expected[attempt]);
  fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy,
          1000), 30 * GST_SECOND);
  fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy,
          G_MAXUINT), 30 * GST_SECOND);
}

GST_END_TEST;

GST_START_TEST (test_backoff_jitter_bounds)
{
  GstSessionRetryPolicy policy;
  GstClockTime first = 0, d;
  gboolean varied = FALSE;
  guint i;

  gst_session_retry_policy_init (&policy);
  for (i = 0; i < 1000; i++) {
    /* attempt 3: 2 s +-20 % */
    d = gst_session_retry_policy_backoff (&policy, 3);
    fail_unless (d >= 1600 * GST_MSECOND && d <= 2400 * GST_MSECOND,
        "%" GST_TIME_FORMAT, GST_TIME_ARGS (d));
    if (i == 0)
      first = d;
    else if (d != first)
      varied = TRUE;
    /* at the cap: never above it */
    d = gst_session_retry_policy_backoff (&policy, 20);
    fail_unless (d >= 24 * GST_SECOND && d <= 30 * GST_SECOND,
        "%" GST_TIME_FORMAT, GST_TIME_ARGS (d));
  }
  fail_unless (varied);
}

GST_END_TEST;

GST_START_TEST (test_backoff_odd_policies)
{
  GstSessionRetryPolicy policy;
  GstClockTime d;
  guint i;

  /* jitter over 1 is clamped to 1: 0 .. 2x, never negative, never over cap */
  gst_session_retry_policy_init (&policy);
  policy.jitter = 5.0;
  for (i = 0; i < 200; i++) {
    d = gst_session_retry_policy_backoff (&policy, 2);
    fail_unless (d <= 2 * GST_SECOND);
  }

  /* negative and NaN jitter: none */
  policy = no_jitter_policy ();
  policy.jitter = -1.0;
  fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy, 2),
      GST_SECOND);
  policy.jitter = NAN;
  fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy, 2),
      GST_SECOND);

  /* multiplier under 1, or NaN: constant */
  policy = no_jitter_policy ();
  policy.multiplier = 0.5;
  fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy, 4),
      500 * GST_MSECOND);
  policy.multiplier = NAN;
  fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy, 4),
      500 * GST_MSECOND);
  policy.multiplier = INFINITY;
  fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy, 4),
      30 * GST_SECOND);

  /* a tiny growth over many attempts terminates */
  policy.multiplier = 1.0000001;
  d = gst_session_retry_policy_backoff (&policy, G_MAXUINT);
  fail_unless_equals_uint64 (d, 30 * GST_SECOND);

  /* initial over the cap: the cap */
  policy = no_jitter_policy ();
  policy.initial_delay = 60 * GST_SECOND;
  fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy, 1),
      30 * GST_SECOND);

  /* no initial delay: no delay */
  policy.initial_delay = 0;
  fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy, 9), 0);

  /* no cap */
  policy = no_jitter_policy ();
  policy.max_delay = GST_CLOCK_TIME_NONE;
  fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy, 11),
      512 * GST_SECOND);
  d = gst_session_retry_policy_backoff (&policy, G_MAXUINT);
  fail_unless (d > (GstClockTime) 100 * 365 * 24 * 3600 * GST_SECOND);
  fail_unless (GST_CLOCK_TIME_IS_VALID (d));

  /* NULL: the defaults */
  d = gst_session_retry_policy_backoff (NULL, 1);
  fail_unless (d >= 400 * GST_MSECOND && d <= 600 * GST_MSECOND);
}

GST_END_TEST;

GST_START_TEST (test_max_attempts)
{
  GstSessionHttpError *error = parse_text (503, NULL,
      "{\"detail\": \"No runner\", \"error_type\": "
      "\"runner_scheduling_failure\"}");
  GstSessionRetryPolicy policy = no_jitter_policy ();
  GstSessionRetryDecision d;
  guint attempt;

  /* 5 attempts in all: retried after attempts 1 to 4 */
  for (attempt = 1; attempt < 5; attempt++) {
    d = gst_session_http_error_retry_decision (error, &policy, attempt);
    fail_unless (d.retry, "attempt %u", attempt);
    fail_unless_equals_uint64 (d.delay,
        gst_session_retry_policy_backoff (&policy, attempt));
  }
  d = gst_session_http_error_retry_decision (error, &policy, 5);
  fail_if (d.retry);
  fail_unless_equals_uint64 (d.delay, 0);
  assert_contains (d.reason, "attempts exhausted");
  d = gst_session_http_error_retry_decision (error, &policy, 6);
  fail_if (d.retry);

  /* 0: unlimited */
  policy.max_attempts = 0;
  d = gst_session_http_error_retry_decision (error, &policy, 1000);
  fail_unless (d.retry);
  fail_unless_equals_uint64 (d.delay, 30 * GST_SECOND);

  /* 1: never retried */
  policy.max_attempts = 1;
  d = gst_session_http_error_retry_decision (error, &policy, 1);
  fail_if (d.retry);

  gst_session_http_error_free (error);
}

GST_END_TEST;

GST_START_TEST (test_not_retryable_reason_wins_over_exhausted)
{
  GstSessionHttpError *error = parse_text (400, NULL,
      "{\"detail\": \"Bad\", \"error_type\": \"bad_request\"}");
  GstSessionRetryDecision d;

  d = gst_session_http_error_retry_decision (error, NULL, 5);
  fail_if (d.retry);
  fail_if (strstr (d.reason, "attempts exhausted") != NULL, "%s", d.reason);
  gst_session_http_error_free (error);

  d = gst_session_http_error_retry_decision (NULL, NULL, 1);
  fail_if (d.retry);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* copy, boxed type, text                                                 */
/* ---------------------------------------------------------------------- */

static void
assert_items_equal (const GstSessionHttpErrorItem * a,
    const GstSessionHttpErrorItem * b)
{
  fail_unless (a != b);
  fail_unless_equals_string (a->type, b->type);
  fail_unless_equals_string (a->msg, b->msg);
  fail_unless_equals_string (a->url, b->url);
  fail_unless_equals_string (a->loc, b->loc);
  fail_unless_equals_string (a->input, b->input);
  if (a->ctx || b->ctx) {
    fail_unless (a->ctx && b->ctx && a->ctx != b->ctx);
    fail_unless (gst_structure_is_equal (a->ctx, b->ctx));
  }
}

static void
assert_errors_equal (const GstSessionHttpError * a,
    const GstSessionHttpError * b)
{
  guint i;

  fail_unless (a != b);
  fail_unless_equals_int (a->status, b->status);
  fail_unless_equals_int (a->kind, b->kind);
  fail_unless_equals_string (a->error_type, b->error_type);
  fail_unless_equals_string (a->detail, b->detail);
  fail_unless_equals_int (a->retryable, b->retryable);
  fail_unless (a->ratelimit_reset == b->ratelimit_reset);
  fail_unless (a->items != b->items);
  fail_unless_equals_int (a->items->len, b->items->len);
  for (i = 0; i < a->items->len; i++)
    assert_items_equal (g_ptr_array_index (a->items, i),
        g_ptr_array_index (b->items, i));
}

GST_START_TEST (test_copy_equals_original)
{
  SoupMessageHeaders *headers = make_headers ("X-Svc-Retryable", "false",
      "x-ratelimit-reset", "9", NULL);
  GstSessionHttpError *error, *copy;
  gchar *a, *b;

  error = parse_text (422, headers, "{\"detail\": [" "{\"loc\": [\"body\", "
      "\"images\", 0], \"msg\": \"Image too small\", \"type\": "
      "\"image_too_small\", \"url\": \"" DOCS "image_too_small\", \"ctx\": "
      "{\"min_height\": 512, \"min_width\": 512}, \"input\": [1, 2]}, "
      "{\"loc\": [\"body\", \"aspect_ratio\"], \"msg\": \"Bad ratio\", "
      "\"type\": \"one_of\", \"ctx\": {\"expected\": [\"16:9\", \"1:1\"]}}]}");
  copy = gst_session_http_error_copy (error);
  assert_errors_equal (error, copy);

  a = gst_session_http_error_to_string (error);
  b = gst_session_http_error_to_string (copy);
  fail_unless_equals_string (a, b);
  g_free (a);
  g_free (b);

  /* the copy outlives the original */
  gst_session_http_error_free (error);
  fail_unless_equals_string (item_at (copy, 1)->type, "one_of");
  gst_session_http_error_free (copy);

  fail_unless (gst_session_http_error_copy (NULL) == NULL);
  gst_session_http_error_free (NULL);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

GST_START_TEST (test_boxed_type)
{
  GstSessionHttpError *error = parse_text (504, NULL,
      "{\"detail\": \"Too slow\", \"error_type\": \"request_timeout\"}");
  GstSessionHttpError *copy;
  GValue value = G_VALUE_INIT;

  fail_unless (G_TYPE_IS_BOXED (GST_SESSION_TYPE_HTTP_ERROR));
  fail_unless (G_TYPE_IS_BOXED (GST_SESSION_TYPE_RETRY_POLICY));
  fail_unless (G_TYPE_IS_BOXED (GST_SESSION_TYPE_RETRY_DECISION));
  g_value_init (&value, GST_SESSION_TYPE_HTTP_ERROR);
  g_value_set_boxed (&value, error);
  copy = g_value_dup_boxed (&value);
  assert_errors_equal (error, copy);
  g_value_unset (&value);
  gst_session_http_error_free (copy);
  gst_session_http_error_free (error);
}

GST_END_TEST;

GST_START_TEST (test_autoptr)
{
  g_autoptr (GstSessionHttpError) error = parse_text (500, NULL, "oops");

  fail_unless_equals_int (error->status, 500);
}

GST_END_TEST;

GST_START_TEST (test_to_string_single_item)
{
  GstSessionHttpError *error = parse_text (422, NULL,
      "{\"detail\": [{\"loc\": [\"body\", \"image_url\"], \"msg\": "
      "\"Image too small (min 512x512)\", \"type\": \"image_too_small\", "
      "\"url\": \"" DOCS "image_too_small\", \"ctx\": {\"min_height\": 512, "
      "\"min_width\": 512}}]}");
  gchar *text = gst_session_http_error_to_string (error);

  fail_unless_equals_string (text,
      "HTTP 422 image_too_small at /body/image_url: "
      "Image too small (min 512x512)");
  g_free (text);
  gst_session_http_error_free (error);
}

GST_END_TEST;

GST_START_TEST (test_to_string_forms)
{
  static const struct
  {
    guint status;
    const gchar *header;        /* x-ratelimit-reset, or NULL */
    const gchar *body;
    const gchar *expected;
  } cases[] = {
    {503, NULL, "{\"detail\": \"No runner could be allocated.\", "
          "\"error_type\": \"runner_scheduling_failure\"}",
        "HTTP 503 runner_scheduling_failure: No runner could be allocated."},
    {500, NULL, "{\"detail\": \"Something broke\"}",
        "HTTP 500: Something broke"},
    {429, "12", NULL, "HTTP 429 rate limited (window resets in 12 s)"},
    {429, NULL, NULL, "HTTP 429 rate limited"},
    {429, "30", "{\"detail\": \"Slow down\"}",
        "HTTP 429 rate limited (window resets in 30 s): Slow down"},
    {404, NULL, "<html/>", "HTTP 404 Not Found"},
    {422, NULL, "{\"detail\": [{\"msg\": \"Only a message\"}]}",
        "HTTP 422 Only a message"},
    {422, NULL, "{\"detail\": [{}]}", "HTTP 422 error without details"},
    {422, NULL, "{\"detail\": [{\"loc\": [\"body\", \"x\"]}]}",
        "HTTP 422 at /body/x"},
    {422, NULL, "{\"detail\": [{\"msg\": \"line one\\nline two\\ttab\", "
          "\"type\": \"custom\"}]}",
        "HTTP 422 custom: line one line two tab"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    SoupMessageHeaders *headers = cases[i].header ?
        make_headers ("x-ratelimit-reset", cases[i].header, NULL) : NULL;
    GstSessionHttpError *error = parse_text (cases[i].status, headers,
        cases[i].body);
    gchar *text = gst_session_http_error_to_string (error);

    fail_unless_equals_string (text, cases[i].expected);
    g_free (text);
    gst_session_http_error_free (error);
    if (headers)
      soup_message_headers_unref (headers);
  }
}

GST_END_TEST;

GST_START_TEST (test_to_string_lists_items)
{
  GstSessionHttpError *error;
  GString *body;
  gchar *text;
  guint i;

  error = parse_text (422, NULL, "{\"detail\": [{\"loc\": [\"body\", "
      "\"image_url\"], \"msg\": \"Image too small\", \"type\": "
      "\"image_too_small\"}, {\"loc\": [\"body\", \"seed\"], \"msg\": "
      "\"Input should be less than 10\", \"type\": \"less_than\"}]}");
  text = gst_session_http_error_to_string (error);
  fail_unless_equals_string (text, "HTTP 422, 2 errors: image_too_small at "
      "/body/image_url: Image too small; less_than at /body/seed: Input "
      "should be less than 10");
  g_free (text);
  gst_session_http_error_free (error);

  /* many long items: a few are shown, the text stays bounded */
  body = g_string_new ("{\"detail\": [");
  for (i = 0; i < 1000; i++) {
    guint j;

    g_string_append_printf (body, "%s{\"loc\": [\"body\", \"f%u\"], "
        "\"type\": \"greater_than\", \"msg\": \"", i ? ", " : "", i);
    for (j = 0; j < 50; j++)
      g_string_append (body, "long message ");
    g_string_append (body, "\"}");
  }
  g_string_append (body, "]}");
  error = gst_session_http_error_parse (422, NULL, body->str, body->len);
  fail_unless_equals_int (error->items->len, 1000);
  text = gst_session_http_error_to_string (error);
  fail_unless (strlen (text) <= 2048, "%" G_GSIZE_FORMAT, strlen (text));
  assert_contains (text, "1000 errors");
  assert_contains (text, "/body/f0");
  assert_contains (text, "and 997 more");
  fail_if (strstr (text, "/body/f3:") != NULL);
  g_free (text);
  gst_session_http_error_free (error);
  g_string_free (body, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_to_string_never_shows_secrets)
{
  static const struct
  {
    guint status;
    const gchar *body;
  } cases[] = {
    {422, SMALL_BODY},
    {503, "{\"detail\": \"No runner\", \"error_type\": "
          "\"runner_scheduling_failure\"}"},
    {429, "{\"detail\": \"Slow down\"}"},
    {401, "Unauthorized"},
    {500, NULL},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    SoupMessageHeaders *headers = make_headers ("Authorization",
        "Key " API_KEY, "Set-Cookie", "session=" API_KEY,
        "X-Api-Key", API_KEY, "x-ratelimit-reset", "1", NULL);
    GstSessionHttpError *error = parse_text (cases[i].status, headers,
        cases[i].body);
    gchar *text = gst_session_http_error_to_string (error);
    GError *gerror = gst_session_http_error_to_gerror (error);

    fail_if (strstr (text, API_KEY) != NULL, "%s", text);
    fail_if (strstr (text, "Authorization") != NULL, "%s", text);
    fail_if (strstr (gerror->message, API_KEY) != NULL);
    g_error_free (gerror);
    g_free (text);
    gst_session_http_error_free (error);
    soup_message_headers_unref (headers);
  }
}

GST_END_TEST;

GST_START_TEST (test_to_gerror)
{
  GstSessionHttpError *error = parse_text (422, NULL, SMALL_BODY);
  GError *gerror = gst_session_http_error_to_gerror (error);
  gchar *text = gst_session_http_error_to_string (error);

  fail_unless (g_error_matches (gerror, GST_SESSION_ERROR,
          GST_SESSION_ERROR_HTTP));
  fail_unless_equals_string (gerror->message, text);
  assert_contains (gerror->message, "image_too_small");
  assert_contains (gerror->message, "Image too small (min 512x512)");
  g_free (text);
  g_error_free (gerror);
  gst_session_http_error_free (error);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* Robustness                                                             */
/* ---------------------------------------------------------------------- */

/* Bounded random mutations of valid answers, with a fixed seed: parse,
 * describe, decide, copy and free must all survive. The real fuzzing lives
 * in tests/fuzz. */
GST_START_TEST (test_mutated_bodies_do_not_crash)
{
  static const gchar *seeds[] = {
    SMALL_BODY, ISE_BODY,
    "{\"detail\": \"No runner\", \"error_type\": \"runner_disconnected\"}",
    "{\"detail\": [{\"loc\": [\"body\", \"images\", 0], \"ctx\": {\"a\": "
        "[1, 2.5, null, true, {\"b\": []}]}, \"input\": {\"x\": \"y\"}}]}",
  };
  static const gchar noise[] = "{}[]\",:\\01-.eE tfn\xc3\xa9\x00\xff";
  GRand *rand = g_rand_new_with_seed (20260101);
  guint i;

  for (i = 0; i < 3000; i++) {
    const gchar *seed = seeds[i % G_N_ELEMENTS (seeds)];
    gsize len = strlen (seed);
    gchar *buf = g_memdup2 (seed, len);
    guint n, m = g_rand_int_range (rand, 1, 6);
    GstSessionHttpError *error, *copy;
    GstSessionRetryDecision d;
    gchar *text;

    for (n = 0; n < m; n++) {
      guint pos = g_rand_int_range (rand, 0, len);

      buf[pos] = noise[g_rand_int_range (rand, 0, sizeof (noise) - 1)];
    }
    if (g_rand_boolean (rand))
      len = g_rand_int_range (rand, 0, len + 1);

    error = gst_session_http_error_parse (g_rand_int_range (rand, 400, 600),
        NULL, buf, len);
    text = gst_session_http_error_to_string (error);
    fail_unless (g_utf8_validate (text, -1, NULL));
    d = gst_session_http_error_retry_decision (error, NULL,
        g_rand_int_range (rand, 1, 8));
    fail_unless (d.reason != NULL);
    copy = gst_session_http_error_copy (error);
    gst_session_http_error_free (error);
    gst_session_http_error_free (copy);
    g_free (text);
    g_free (buf);
  }
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
httperror_suite (void)
{
  Suite *s = suite_create ("httperror");
  TCase *tc_model = tcase_create ("model");
  TCase *tc_request = tcase_create ("request");
  TCase *tc_headers = tcase_create ("headers");
  TCase *tc_ratelimit = tcase_create ("ratelimit");
  TCase *tc_bodies = tcase_create ("bodies");
  TCase *tc_fields = tcase_create ("fields");
  TCase *tc_retry = tcase_create ("retry");
  TCase *tc_text = tcase_create ("text");

  suite_add_tcase (s, tc_model);
  tcase_add_test (tc_model, test_model_table_has_every_row);
  tcase_add_loop_test (tc_model, test_model_row, 0, G_N_ELEMENTS (model_rows));

  suite_add_tcase (s, tc_request);
  tcase_add_test (tc_request, test_request_table_has_every_row);
  tcase_add_loop_test (tc_request, test_request_row, 0,
      G_N_ELEMENTS (request_rows));
  tcase_add_loop_test (tc_request, test_request_row_without_header, 0,
      G_N_ELEMENTS (request_rows));

  suite_add_tcase (s, tc_headers);
  tcase_add_test (tc_headers, test_retryable_false_overrides_5xx_type);
  tcase_add_test (tc_headers, test_retryable_true_overrides_400_type);
  tcase_add_test (tc_headers, test_retryable_header_overrides_request_types);
  tcase_add_test (tc_headers, test_retryable_header_case_and_junk);
  tcase_add_test (tc_headers, test_error_type_header_wins_when_body_lacks_it);
  tcase_add_test (tc_headers, test_error_type_in_body_and_header);
  tcase_add_test (tc_headers, test_error_type_header_alone);
  tcase_add_test (tc_headers, test_model_body_keeps_item_type_over_header);

  suite_add_tcase (s, tc_ratelimit);
  tcase_add_test (tc_ratelimit, test_ratelimit_reset_is_the_delay);
  tcase_add_test (tc_ratelimit, test_ratelimit_reset_values);
  tcase_add_test (tc_ratelimit, test_ratelimit_huge_reset_is_bounded);
  tcase_add_test (tc_ratelimit, test_ratelimit_without_reset_backs_off);
  tcase_add_test (tc_ratelimit, test_ratelimit_keeps_request_body);
  tcase_add_test (tc_ratelimit, test_ratelimit_keeps_model_body);
  tcase_add_test (tc_ratelimit, test_ratelimit_with_retryable_header);
  tcase_add_test (tc_ratelimit, test_ratelimit_respects_max_attempts);

  suite_add_tcase (s, tc_bodies);
  tcase_add_test (tc_bodies, test_html_502_page);
  tcase_add_test (tc_bodies, test_empty_bodies);
  tcase_add_test (tc_bodies, test_json_of_no_known_form);
  tcase_add_test (tc_bodies, test_detail_of_wrong_type);
  tcase_add_test (tc_bodies, test_invalid_json_and_bytes);
  tcase_add_test (tc_bodies, test_body_length_is_respected);
  tcase_add_test (tc_bodies, test_missing_fields_in_items);
  tcase_add_test (tc_bodies, test_deeply_nested_json);
  tcase_add_test (tc_bodies, test_nesting_limit_boundary);
  tcase_add_test (tc_bodies, test_brackets_in_strings_do_not_count);
  tcase_add_test (tc_bodies, test_huge_body);
  tcase_add_test (tc_bodies, test_mutated_bodies_do_not_crash);

  suite_add_tcase (s, tc_fields);
  tcase_add_test (tc_fields, test_loc_json_pointer);
  tcase_add_test (tc_fields, test_ctx_value_types);
  tcase_add_test (tc_fields, test_ctx_arrays);
  tcase_add_test (tc_fields, test_ctx_odd_keys);
  tcase_add_test (tc_fields, test_input_is_compact_json);

  suite_add_tcase (s, tc_retry);
  tcase_add_test (tc_retry, test_auth_errors_not_retried);
  tcase_add_test (tc_retry, test_status_rule);
  tcase_add_test (tc_retry, test_unknown_request_type_uses_status);
  tcase_add_test (tc_retry, test_mixed_items_not_retried);
  tcase_add_test (tc_retry, test_type_is_transient);
  tcase_add_test (tc_retry, test_policy_defaults);
  tcase_add_test (tc_retry, test_backoff_grows_and_is_capped);
  tcase_add_test (tc_retry, test_backoff_jitter_bounds);
  tcase_add_test (tc_retry, test_backoff_odd_policies);
  tcase_add_test (tc_retry, test_max_attempts);
  tcase_add_test (tc_retry, test_not_retryable_reason_wins_over_exhausted);

  suite_add_tcase (s, tc_text);
  tcase_add_test (tc_text, test_copy_equals_original);
  tcase_add_test (tc_text, test_boxed_type);
  tcase_add_test (tc_text, test_autoptr);
  tcase_add_test (tc_text, test_to_string_single_item);
  tcase_add_test (tc_text, test_to_string_forms);
  tcase_add_test (tc_text, test_to_string_lists_items);
  tcase_add_test (tc_text, test_to_string_never_shows_secrets);
  tcase_add_test (tc_text, test_to_gerror);

  return s;
}

GST_CHECK_MAIN (httperror);
