/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * End-to-end tests of gst-session against the reference service (spawned
 * on 127.0.0.1, port 0, --time-scale 0.01), what it refuses and never
 * shows: rejections (a forged signature, no headers, a key set it cannot
 * fetch, a source outside the service's ranges); stored deliveries
 * verified offline; a delivery for another account; rate limits; the API
 * key never shown. Every wait is bounded.
 */

#include <string.h>
#include <glib/gstdio.h>

#include "cli-e2e-common.h"

/* POSTs a delivery with the given headers (NULL: none) to @url. */
static guint
post_delivery (const gchar * url, const gchar * const *headers,
    const gchar * body)
{
  SoupSession *session = soup_session_new_with_options ("timeout", 10, NULL);
  SoupMessage *msg = soup_message_new ("POST", url);
  GBytes *b = g_bytes_new (body, strlen (body)), *answer;
  guint status;

  soup_message_set_request_body_from_bytes (msg, "application/json", b);
  for (; headers && *headers; headers += 2)
    soup_message_headers_replace (soup_message_get_request_headers (msg),
        headers[0], headers[1]);
  answer = soup_session_send_and_read (session, msg, NULL, NULL);
  status = soup_message_get_status (msg);
  if (answer)
    g_bytes_unref (answer);
  g_bytes_unref (b);
  g_object_unref (msg);
  g_object_unref (session);
  return status;
}

GST_START_TEST (test_rejections)
{
  CliChild *svc = service_start (), *svc_far, *l, *l_nokeys;
  gchar *db = cli_tmp_path ("e2e5.db"), *out = cli_tmp_path ("e2e5.jsonl");
  gchar *db2 = cli_tmp_path ("e2e5b.db"), *db3 = cli_tmp_path ("e2e5c.db");
  gchar *hook, *id, *ts, *url, *body = cli_delivery_body ("forged-1");
  gchar *sig = g_strnfill (128, 'a'), *far_hook, *needle;
  guint n, delivered, attempts, failed;
  const gchar *nokeys_args[] = { "webhook", "listen", "--port", "0",
    "--jwks-url", "http://127.0.0.1:1/jwks.json", "--db", db3, "--jsonl",
    out, NULL
  };
  const gchar *forged[] = { "X-Svc-Webhook-Request-Id", "forged-1",
    "X-Svc-Webhook-User-Id", "user-reference", "X-Svc-Webhook-Timestamp",
    NULL, "X-Svc-Webhook-Signature", sig, NULL
  };

  ts = g_strdup_printf ("%" G_GINT64_FORMAT, g_get_real_time () /
      G_USEC_PER_SEC);
  forged[5] = ts;
  l = listen_start (svc, "0", db, "--jsonl", out);
  hook = webhook_url (l);
  /* a signature no key made; no headers at all; not a POST */
  fail_unless_equals_int (post_delivery (hook, forged, body), 401);
  fail_unless_equals_int (post_delivery (hook, NULL, body), 401);
  fail_unless (cli_child_wait_stderr (l, "no-key-matched", 1, WAIT_MS));
  fail_unless_equals_int (cli_http ("GET", hook, NULL, NULL), 405);

  /* the keys rotate: the receiver fetches the key set again and accepts */
  url = g_strconcat (svc->url, "/admin/rotate-key", NULL);
  fail_unless_equals_int (cli_http ("POST", url, "{}", NULL), 200);
  id = submit (svc, "reference/echo", hook, "{\"after\": \"rotation\"}");
  fail_unless (wait_processed (l, id));
  fail_unless (cli_wait_lines (out, 1, WAIT_MS));

  /* the key set cannot be fetched: 503, so the service delivers again */
  l_nokeys = cli_listener_start (NULL, nokeys_args);
  g_free (hook);
  hook = webhook_url (l_nokeys);
  fail_unless_equals_int (post_delivery (hook, forged, body), 503);
  cli_child_stop (l_nokeys);
  cli_child_free (l_nokeys);

  /* a service whose webhook_ip_ranges leave 127.0.0.1 out: 403 */
  svc_far = cli_service_start ("--time-scale", "0.01", "--webhook-ip-range",
      "10.0.0.0/8", NULL);
  cli_child_stop (l);
  cli_child_free (l);
  l = listen_start (svc_far, "0", db2, "--jsonl", out);
  far_hook = webhook_url (l);
  g_free (id);
  id = submit (svc_far, "reference/echo", far_hook, "{}");
  fail_unless (wait_deliveries (svc_far, id, 1, 0, 2));
  service_deliveries (svc_far, id, &n, &delivered, &attempts, &failed);
  fail_unless_equals_int (delivered, 0);
  fail_unless (cli_child_wait_stderr (l, "403 (source-not-allowed)", 1,
          WAIT_MS));
  needle = g_strconcat ("stored ", id, NULL);
  fail_unless_equals_int (cli_child_stderr_count (l, needle), 0);
  g_free (needle);

  cli_child_stop (l);
  cli_child_free (l);
  cli_child_stop (svc_far);
  cli_child_free (svc_far);
  cli_child_stop (svc);
  cli_child_free (svc);
  g_free (far_hook);
  g_free (url);
  g_free (id);
  g_free (hook);
  g_free (ts);
  g_free (sig);
  g_free (body);
  g_free (db3);
  g_free (db2);
  g_free (out);
  g_free (db);
}

GST_END_TEST;

GST_START_TEST (test_dir_and_offline_verify)
{
  CliChild *svc = service_start (), *l;
  gchar *db = cli_tmp_path ("e2e6.db"), *dir = cli_tmp_path ("e2e6.d");
  gchar *hook, *id, *headers, *json, *jwks, *url, *name;
  CliRun *run;

  l = listen_start (svc, "0", db, "--dir", dir);
  hook = webhook_url (l);
  id = submit (svc, "reference/not-json", hook, "{\"x\": 1}");
  fail_unless (wait_processed (l, id));
  name = g_strconcat (id, ".headers", NULL);
  headers = g_build_filename (dir, name, NULL);
  g_free (name);
  name = g_strconcat (id, ".json", NULL);
  json = g_build_filename (dir, name, NULL);
  g_free (name);
  fail_unless (g_file_test (headers, G_FILE_TEST_EXISTS));
  fail_unless (g_file_test (json, G_FILE_TEST_EXISTS));
  /* what the receiver writes is its owner's only */
  {
    const gchar *paths[] = { headers, json, db, dir };
    guint i;

    for (i = 0; i < G_N_ELEMENTS (paths); i++) {
      GStatBuf st;

      fail_unless (g_stat (paths[i], &st) == 0);
      fail_unless_equals_int (st.st_mode & 0777, i == 3 ? 0700 : 0600);
    }
  }

  /* the files are the delivery as received: they verify offline */
  jwks = jwks_url (svc);
  run = cli_run ("webhook", "verify", "--headers", headers, "--body", json,
      "--jwks-url", jwks, NULL);
  fail_unless_equals_int (run->status, 0);
  fail_unless (g_str_has_prefix (run->out, "VALID"), "%s", run->out);
  cli_run_free (run);
  run = cli_run ("--json", "webhook", "verify", "--headers", headers,
      "--body", json, "--jwks-url", jwks, NULL);
  fail_unless (strstr (run->out, "\"user_id\":\"user-reference\""), "%s",
      run->out);
  cli_run_free (run);

  /* the signed user id is compared with this account's */
  run = cli_run ("webhook", "verify", "--headers", headers, "--body", json,
      "--jwks-url", jwks, "--user-id", "user-reference", NULL);
  fail_unless_equals_int (run->status, 0);
  fail_unless (g_str_has_prefix (run->out, "VALID"), "%s", run->out);
  cli_run_free (run);
  run = cli_run ("webhook", "verify", "--headers", headers, "--body", json,
      "--jwks-url", jwks, "--user-id", "another-account", NULL);
  fail_unless_equals_int (run->status, 1);
  fail_unless (g_str_has_prefix (run->out, "INVALID (wrong-account)"), "%s",
      run->out);
  cli_run_free (run);

  /* after a rotation the old signature matches no key of the set */
  url = g_strconcat (svc->url, "/admin/rotate-key", NULL);
  fail_unless_equals_int (cli_http ("POST", url, "{}", NULL), 200);
  run = cli_run ("webhook", "verify", "--headers", headers, "--body", json,
      "--jwks-url", jwks, NULL);
  fail_unless_equals_int (run->status, 1);
  fail_unless (g_str_has_prefix (run->out, "INVALID (no-key-matched)"));
  cli_run_free (run);
  cli_child_stop (l);
  cli_child_free (l);

  /* the key set cannot be fetched: no verdict, exit 5 */
  cli_child_stop (svc);
  run = cli_run ("webhook", "verify", "--headers", headers, "--body", json,
      "--jwks-url", jwks, NULL);
  fail_unless_equals_int (run->status, 5);
  cli_run_free (run);
  cli_child_free (svc);

  g_free (url);
  g_free (jwks);
  g_free (headers);
  g_free (json);
  g_free (id);
  g_free (hook);
  g_free (dir);
  g_free (db);
}

GST_END_TEST;

/* a delivery validly signed for another account: 403, never stored */
GST_START_TEST (test_wrong_account_refused)
{
  CliChild *svc = service_start (), *l;
  gchar *db = cli_tmp_path ("e2e11.db"), *out = cli_tmp_path ("e2e11.jsonl");
  gchar *jwks = jwks_url (svc), *hook, *id;
  const gchar *args[] = { "webhook", "listen", "--port", "0", "--jwks-url",
    jwks, "--db", db, "--jsonl", out, "--user-id", "another-account", NULL
  };

  l = cli_listener_start (NULL, args);
  hook = webhook_url (l);
  id = submit (svc, "reference/echo", hook, "{\"for\": \"someone else\"}");
  fail_unless (cli_child_wait_stderr (l, "wrong-account", 1, WAIT_MS),
      "the delivery for user-reference was not refused");
  fail_unless (cli_child_wait_stderr (l, "403", 1, 0));
  fail_if (g_file_test (out, G_FILE_TEST_EXISTS) &&
      cli_wait_lines (out, 1, 0), "a delivery for another account was "
      "processed");
  cli_child_stop (l);
  cli_child_free (l);
  cli_child_stop (svc);
  cli_child_free (svc);
  g_free (id);
  g_free (hook);
  g_free (jwks);
  g_free (out);
  g_free (db);
}

GST_END_TEST;

static gint
manage_quiet (const gchar * key, const gchar * const *args)
{
  gchar *env_key = g_strconcat ("GST_SESSION_API_KEY=", key, NULL);
  const gchar *env[] = { env_key, NULL };
  CliRun *run = cli_run_full (env, NULL, 30, args);
  gint status = run->status;

  cli_run_free (run);
  g_free (env_key);
  return status;
}

GST_START_TEST (test_rate_limits)
{
  CliChild *svc = cli_service_start ("--time-scale", "0.01", "--api-key",
      "rate-client-1", "--api-key", "rate-client-2", "--api-key",
      "rate-client-3", NULL);
  const gchar *env[] = { "GST_SESSION_API_KEY=rate-client-1", NULL };
  const gchar *stop_nope[] = { "runners", "stop", "nope", "--api-url",
    svc->url, NULL
  };
  const gchar *stop[] = { "runners", "stop", "runner-echo-1", "--api-url",
    svc->url, NULL
  };
  const gchar *get[] = { "runners", "get", "runner-echo-1", "--api-url",
    svc->url, NULL
  };
  const gchar *exec_nope[] = { "runners", "exec", "nope", "--api-url",
    svc->url, "--", "true", NULL
  };
  const gchar *exec[] = { "--json", "runners", "exec", "runner-echo-1",
    "--api-url", svc->url, "--", "echo", "hi", NULL
  };
  GRegex *retry = g_regex_new ("retry after [0-9]+ s", 0, 0, NULL);
  CliRun *run;
  guint i;

  /* 60 stops a window: refused calls on an unknown runner count too */
  for (i = 0; i < 60; i++)
    fail_unless_equals_int (manage_quiet ("rate-client-1", stop_nope), 3);
  run = cli_run_full (env, NULL, 30, stop);
  fail_unless_equals_int (run->status, 4);
  fail_unless (strstr (run->err, "the runner is still running; retry after ")
      != NULL, "%s", run->err);
  fail_unless (g_regex_match (retry, run->err, 0, NULL));
  cli_run_free (run);
  /* and it is (GET /runners/{id} is another limit) */
  run = cli_run_full (env, NULL, 30, get);
  fail_unless_equals_int (run->status, 0);
  fail_unless (strstr (run->out, "state: running") != NULL, "%s", run->out);
  cli_run_free (run);
  /* another client (a key the service checks) has its own windows */
  fail_unless_equals_int (manage_quiet ("rate-client-2", stop_nope), 3);

  /* 90 execs a window; --json gives retry_after */
  for (i = 0; i < 90; i++)
    fail_unless_equals_int (manage_quiet ("rate-client-3", exec_nope), 3);
  run = cli_run_full ((const gchar *[]) {
        "GST_SESSION_API_KEY=rate-client-3", NULL
      }, NULL, 30, exec);
  fail_unless_equals_int (run->status, 4);
  fail_unless (strstr (run->out, "\"kind\":\"rate-limited\"") != NULL);
  fail_unless (strstr (run->out, "\"retry_after\":") != NULL);
  fail_unless (g_regex_match (retry, run->err, 0, NULL), "%s", run->err);
  fail_unless (strstr (run->err, "still running") == NULL);
  cli_run_free (run);

  g_regex_unref (retry);
  cli_child_stop (svc);
  cli_child_free (svc);
}

GST_END_TEST;

static void
assert_no_key (CliRun * run, const gchar * key)
{
  fail_if (strstr (run->out, key) != NULL, "the key is on stdout");
  fail_if (strstr (run->err, key) != NULL, "the key is on stderr");
}

GST_START_TEST (test_api_key_never_printed)
{
  CliChild *svc = cli_service_start ("--time-scale", "0.01", "--api-key",
      "SEKRIT-key-0123", NULL), *l;
  gchar *queue = g_strconcat (svc->url, "/queue", NULL);
  gchar *db = cli_tmp_path ("e2e8.db"), *envdump = cli_tmp_path ("env.txt");
  gchar *cmd, *jwks, *hook, *text = NULL;
  const gchar *good[] = { "GST_SESSION_API_KEY=SEKRIT-key-0123", NULL };
  const gchar *list[] = { "apps", "list", "--api-url", svc->url, NULL };
  const gchar *list_json[] = { "--json", "apps", "list", "--api-url",
    svc->url, NULL
  };
  const gchar *wrong[] = { "apps", "list", "--api-key", "WRONG-key-4567",
    "--api-url", svc->url, NULL
  };
  const gchar *wrong_json[] = { "--json", "--api-key=WRONG-key-4567",
    "runners", "logs", "runner-echo-1", "--api-url", svc->url, NULL
  };
  const gchar *submit_wrong[] = { "submit", "--queue-url", queue,
    "reference/echo", "--webhook", "http://127.0.0.1:9/hook", "--api-key",
    "WRONG-key-4567", NULL
  };
  const gchar *submit_422[] = { "submit", "--queue-url", queue,
    "reference/upper", "--webhook", "http://127.0.0.1:9/hook", "--data",
    "{\"text\": \"\"}", NULL
  };
  CliRun *run;

  run = cli_run_full (good, NULL, 30, list);
  fail_unless_equals_int (run->status, 0);
  fail_unless (strstr (run->out, "reference/echo") != NULL);
  assert_no_key (run, "SEKRIT-key-0123");
  cli_run_free (run);
  run = cli_run_full (good, NULL, 30, list_json);
  fail_unless_equals_int (run->status, 0);
  assert_no_key (run, "SEKRIT-key-0123");
  cli_run_free (run);
  /* no key: 401 is a refusal */
  run = cli_run_full (NULL, NULL, 30, list);
  fail_unless_equals_int (run->status, 3);
  cli_run_free (run);
  run = cli_run_full (NULL, NULL, 30, wrong);
  fail_unless_equals_int (run->status, 3);
  assert_no_key (run, "WRONG-key-4567");
  cli_run_free (run);
  run = cli_run_full (NULL, NULL, 30, wrong_json);
  fail_unless_equals_int (run->status, 3);
  assert_no_key (run, "WRONG-key-4567");
  cli_run_free (run);
  run = cli_run_full (NULL, NULL, 30, submit_wrong);
  fail_unless_equals_int (run->status, 3);
  assert_no_key (run, "WRONG-key-4567");
  cli_run_free (run);
  /* a model-level refusal with ctx, the key set (the library scrubs the
   * ctx too, which needs GStreamer initialised) */
  run = cli_run_full (good, NULL, 30, submit_422);
  fail_unless_equals_int (run->status, 3);
  fail_unless (strstr (run->err, "sequence_too_short") != NULL, "%s", run->err);
  assert_no_key (run, "SEKRIT-key-0123");
  cli_run_free (run);

  /* the listener's command does not inherit the key */
  jwks = jwks_url (svc);
  cmd = g_strdup_printf ("sh -c 'env > %s'", envdump);
  {
    const gchar *args[] = { "webhook", "listen", "--port", "0",
      "--jwks-url", jwks, "--db", db, "--exec", cmd, NULL
    };
    gchar *id;

    l = cli_listener_start (good, args);
    hook = webhook_url (l);
    {
      const gchar *sub[] = { "--json", "submit", "--queue-url", queue,
        "reference/echo", "--webhook", hook, NULL
      };
      JsonParser *parser;

      run = cli_run_full (good, NULL, 30, sub);
      fail_unless_equals_int (run->status, 0);
      assert_no_key (run, "SEKRIT-key-0123");
      id = g_strdup (json_object_get_string_member (parse_object (run->out,
                  &parser), "request_id"));
      g_object_unref (parser);
      cli_run_free (run);
    }
    fail_unless (wait_processed (l, id));
    fail_unless (g_file_get_contents (envdump, &text, NULL, NULL));
    fail_unless (strstr (text, "GST_SESSION_REQUEST_ID=") != NULL);
    fail_if (strstr (text, "SEKRIT") != NULL);
    cli_child_stop (l);
    text = (g_free (text), cli_child_stderr (l));
    fail_if (strstr (text, "SEKRIT") != NULL);
    cli_child_free (l);
    g_free (id);
    g_free (hook);
  }

  cli_child_stop (svc);
  text = (g_free (text), cli_child_stderr (svc));
  cli_child_free (svc);
  g_free (text);
  g_free (cmd);
  g_free (jwks);
  g_free (envdump);
  g_free (db);
  g_free (queue);
}

GST_END_TEST;

static Suite *
cli_e2e_refusals_suite (void)
{
  Suite *s = suite_create ("gst-session-cli-e2e-refusals");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_rejections);
  tcase_add_test (tc, test_dir_and_offline_verify);
  tcase_add_test (tc, test_wrong_account_refused);
  tcase_add_test (tc, test_rate_limits);
  tcase_add_test (tc, test_api_key_never_printed);
  tcase_add_checked_fixture (tc, NULL, cli_tmp_cleanup);
  return s;
}

GST_CHECK_MAIN (cli_e2e_refusals);
