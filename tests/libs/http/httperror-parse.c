/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The HTTP error model of spec 001 ("Errors"): every documented error
 * parsed (each row of the model-level and of the request-level table), the
 * X-Svc-Retryable and X-Svc-Error-Type headers, and the loc, ctx and input
 * of an item.
 */

#include "httperror-test.h"

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

#define DSE_BODY "{\"detail\": [{\"loc\": [\"body\"], \"msg\": \"Partner " \
  "failed\", \"type\": \"downstream_service_error\", \"url\": \"" DOCS \
  "downstream_service_error\"}]}"

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

static Suite *
httperror_parse_suite (void)
{
  Suite *s = suite_create ("httperror-parse");
  TCase *tc_model = tcase_create ("model");
  TCase *tc_request = tcase_create ("request");
  TCase *tc_headers = tcase_create ("headers");
  TCase *tc_fields = tcase_create ("fields");

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

  suite_add_tcase (s, tc_fields);
  tcase_add_test (tc_fields, test_loc_json_pointer);
  tcase_add_test (tc_fields, test_ctx_value_types);
  tcase_add_test (tc_fields, test_ctx_arrays);
  tcase_add_test (tc_fields, test_ctx_odd_keys);
  tcase_add_test (tc_fields, test_input_is_compact_json);
  return s;
}

GST_CHECK_MAIN (httperror_parse);
