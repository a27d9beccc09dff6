/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Webhook verification: deliveries verified per second by
 * gst_session_webhook_verify() (the four headers read from a
 * SoupMessageHeaders, the timestamp checked, the body hashed, the signed
 * message rebuilt, Ed25519 checked with a one-key key set) and by
 * gst_session_webhook_verify_values(), against nettle's
 * ed25519_sha512_verify() alone on the same signed message: the overhead
 * of everything around the signature check. A fixed key, a fixed 1 KiB
 * body and its signature; alternating blocks timed in CPU time of the
 * thread (the machine is shared), medians.
 *
 * Then, when the build has `gst-session webhook listen`: durable
 * deliveries per second through the receiver (verified, stored and synced
 * before its 200, processed into a JSONL file), posted by 1 and by 4
 * concurrent senders, beside the floor any durable receiver has on this
 * disk: appending the same body to a file and fdatasync() it, in a loop.
 * The key set is served by this program; the database lives in the build
 * directory (on disk, not a tmpfs).
 */

#include <glib/gstdio.h>
#include <fcntl.h>
#include <math.h>
#include <nettle/eddsa.h>
#include <nettle/sha2.h>
#include <string.h>
#include <unistd.h>
#include <gst/session/platform/platform.h>

#include "bench-common.h"

#define REQUEST_ID "9b2f6d0e-4c1a-4d53-9a57-1f0e8c2d7b31"
#define USER_ID "user-0042"

static GstSessionWebhookKeySet *keys;
static guint8 priv[ED25519_KEY_SIZE];
static gchar *keyset;
static gchar *answer_text;
static SoupMessageHeaders *headers;
static guint8 pub[ED25519_KEY_SIZE];
static guint8 sig[ED25519_SIGNATURE_SIZE];
static gchar *body, *message, *timestamp, *sig_hex;
static gint64 now;

typedef gboolean (*Op) (void);

static gboolean
lib_verify (void)
{
  GstSessionWebhookVerification *v = gst_session_webhook_verify (keys,
      headers, (const guint8 *) body, strlen (body), now,
      GST_SESSION_WEBHOOK_LEEWAY);
  gboolean ok = v->result == GST_SESSION_WEBHOOK_RESULT_VALID;

  gst_session_webhook_verification_free (v);
  return ok;
}

static gboolean
lib_verify_values (void)
{
  GstSessionWebhookVerification *v = gst_session_webhook_verify_values (keys,
      REQUEST_ID, USER_ID, timestamp, sig_hex, (const guint8 *) body,
      strlen (body), now, GST_SESSION_WEBHOOK_LEEWAY);
  gboolean ok = v->result == GST_SESSION_WEBHOOK_RESULT_VALID;

  gst_session_webhook_verification_free (v);
  return ok;
}

static gboolean
raw_verify (void)
{
  return ed25519_sha512_verify (pub, strlen (message),
      (const guint8 *) message, sig);
}

static gdouble
rate (Op op, guint ms)
{
  gdouble t0 = bench_thread_cpu_ms (), t;
  guint n = 0, i;

  do {
    for (i = 0; i < 20; i++)
      if (!op ())
        g_error ("a verification failed");
    n += 20;
    t = bench_thread_cpu_ms ();
  } while (t - t0 < ms);
  return n * 1000.0 / (t - t0);
}

static gchar *
hex (const guint8 * data, gsize len)
{
  gchar *s = g_malloc (2 * len + 1);
  gsize i;

  for (i = 0; i < len; i++) {
    s[2 * i] = "0123456789abcdef"[data[i] >> 4];
    s[2 * i + 1] = "0123456789abcdef"[data[i] & 0xf];
  }
  s[2 * len] = '\0';
  return s;
}

static void
setup (void)
{
  guint8 digest[SHA256_DIGEST_SIZE];
  struct sha256_ctx sha;
  GString *b = g_string_new ("{\"request_id\": \"" REQUEST_ID "\", "
      "\"status\": \"OK\", \"payload\": {\"text\": \"");
  gchar *x, *p, *digest_hex;
  guint i;
  GError *err = NULL;

  for (i = 0; i < ED25519_KEY_SIZE; i++)
    priv[i] = (guint8) (i * 7 + 1);
  ed25519_sha512_public_key (pub, priv);

  while (b->len < 1000)
    g_string_append (b, "a generated answer ");
  answer_text = g_strdup (b->str + strlen ("{\"request_id\": \"" REQUEST_ID
          "\", \"status\": \"OK\", \"payload\": {\"text\": \""));
  g_string_append (b, "\"}}");
  body = g_string_free (b, FALSE);

  now = g_get_real_time () / G_USEC_PER_SEC;
  timestamp = g_strdup_printf ("%" G_GINT64_FORMAT, now);
  sha256_init (&sha);
  sha256_update (&sha, strlen (body), (const guint8 *) body);
  sha256_digest (&sha, sizeof (digest), digest);
  digest_hex = hex (digest, sizeof (digest));
  message = g_strjoin ("\n", REQUEST_ID, USER_ID, timestamp, digest_hex, NULL);
  g_free (digest_hex);
  ed25519_sha512_sign (pub, priv, strlen (message), (const guint8 *) message,
      sig);
  sig_hex = hex (sig, sizeof (sig));

  x = g_base64_encode (pub, sizeof (pub));
  for (p = x; *p; p++)
    *p = *p == '+' ? '-' : *p == '/' ? '_' : *p;
  if ((p = strchr (x, '=')))
    *p = '\0';
  keyset = g_strdup_printf ("{\"keys\": [{\"kty\": \"OKP\", \"crv\": "
      "\"Ed25519\", \"kid\": \"bench\", \"x\": \"%s\"}]}", x);
  keys = gst_session_webhook_key_set_parse (keyset, strlen (keyset), &err);
  if (keys == NULL)
    g_error ("key set: %s", err->message);
  g_free (x);

  headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_REQUEST);
  soup_message_headers_append (headers, "Content-Type", "application/json");
  soup_message_headers_append (headers, "User-Agent", "bench");
  soup_message_headers_append (headers, GST_SESSION_WEBHOOK_HEADER_REQUEST_ID,
      REQUEST_ID);
  soup_message_headers_append (headers, GST_SESSION_WEBHOOK_HEADER_USER_ID,
      USER_ID);
  soup_message_headers_append (headers, GST_SESSION_WEBHOOK_HEADER_TIMESTAMP,
      timestamp);
  soup_message_headers_append (headers, GST_SESSION_WEBHOOK_HEADER_SIGNATURE,
      sig_hex);
}

/* ---- the receiver: gst-session webhook listen ---- */

typedef struct
{
  gchar *id;
  gchar *body;
  gchar *timestamp;
  gchar *signature;
} Delivery;

static Delivery *
delivery_new (void)
{
  Delivery *d = g_new0 (Delivery, 1);
  guint8 digest[SHA256_DIGEST_SIZE], s[ED25519_SIGNATURE_SIZE];
  struct sha256_ctx sha;
  gchar *digest_hex, *msg;

  d->id = g_uuid_string_random ();
  d->body = g_strdup_printf ("{\"request_id\": \"%s\", "
      "\"gateway_request_id\": \"%s\", \"status\": \"OK\", \"payload\": "
      "{\"text\": \"%s\"}}", d->id, d->id, answer_text);
  d->timestamp = g_strdup_printf ("%" G_GINT64_FORMAT,
      g_get_real_time () / G_USEC_PER_SEC);
  sha256_init (&sha);
  sha256_update (&sha, strlen (d->body), (const guint8 *) d->body);
  sha256_digest (&sha, sizeof (digest), digest);
  digest_hex = hex (digest, sizeof (digest));
  msg = g_strjoin ("\n", d->id, USER_ID, d->timestamp, digest_hex, NULL);
  ed25519_sha512_sign (pub, priv, strlen (msg), (const guint8 *) msg, s);
  d->signature = hex (s, sizeof (s));
  g_free (msg);
  g_free (digest_hex);
  return d;
}

static void
delivery_free (gpointer data)
{
  Delivery *d = data;

  g_free (d->id);
  g_free (d->body);
  g_free (d->timestamp);
  g_free (d->signature);
  g_free (d);
}

/* the key set server, on its own thread */
typedef struct
{
  GMainContext *ctx;
  GMainLoop *loop;
  GThread *thread;
  gchar *url;
  GMutex lock;
  GCond cond;
} KeyServer;

static void
on_jwks (SoupServer * server, SoupServerMessage * msg, const char *path,
    GHashTable * query, gpointer data)
{
  soup_server_message_set_status (msg, 200, NULL);
  soup_server_message_set_response (msg, "application/json",
      SOUP_MEMORY_COPY, keyset, strlen (keyset));
}

static gpointer
key_server_thread (gpointer data)
{
  KeyServer *k = data;
  SoupServer *server;
  GSList *uris;

  g_main_context_push_thread_default (k->ctx);
  server = soup_server_new (NULL, NULL);
  soup_server_add_handler (server, "/jwks.json", on_jwks, NULL, NULL);
  soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, NULL);
  uris = soup_server_get_uris (server);
  g_mutex_lock (&k->lock);
  k->url = g_strdup_printf ("http://127.0.0.1:%d/jwks.json",
      g_uri_get_port (uris->data));
  g_cond_broadcast (&k->cond);
  g_mutex_unlock (&k->lock);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  g_main_loop_run (k->loop);
  g_object_unref (server);
  g_main_context_pop_thread_default (k->ctx);
  return NULL;
}

static KeyServer *
key_server_start (void)
{
  KeyServer *k = g_new0 (KeyServer, 1);

  g_mutex_init (&k->lock);
  g_cond_init (&k->cond);
  k->ctx = g_main_context_new ();
  k->loop = g_main_loop_new (k->ctx, FALSE);
  k->thread = g_thread_new ("jwks", key_server_thread, k);
  g_mutex_lock (&k->lock);
  while (k->url == NULL)
    g_cond_wait (&k->cond, &k->lock);
  g_mutex_unlock (&k->lock);
  return k;
}

static void
key_server_stop (KeyServer * k)
{
  g_main_loop_quit (k->loop);
  g_thread_join (k->thread);
  g_main_loop_unref (k->loop);
  g_main_context_unref (k->ctx);
  g_free (k->url);
  g_free (k);
}

/* senders: each takes deliveries from a shared pool until the deadline */
typedef struct
{
  const gchar *url;
  GPtrArray *pool;
  gint next;                    /* atomic */
  gint stored;                  /* atomic */
  gint refused;                 /* atomic */
  gdouble deadline;
} Senders;

static gboolean
post (SoupSession * session, const gchar * url, Delivery * d)
{
  SoupMessage *msg = soup_message_new ("POST", url);
  SoupMessageHeaders *h = soup_message_get_request_headers (msg);
  GBytes *req = g_bytes_new_static (d->body, strlen (d->body)), *resp;
  gboolean ok;

  soup_message_headers_append (h, GST_SESSION_WEBHOOK_HEADER_REQUEST_ID, d->id);
  soup_message_headers_append (h, GST_SESSION_WEBHOOK_HEADER_USER_ID, USER_ID);
  soup_message_headers_append (h, GST_SESSION_WEBHOOK_HEADER_TIMESTAMP,
      d->timestamp);
  soup_message_headers_append (h, GST_SESSION_WEBHOOK_HEADER_SIGNATURE,
      d->signature);
  soup_message_set_request_body_from_bytes (msg, "application/json", req);
  resp = soup_session_send_and_read (session, msg, NULL, NULL);
  ok = resp && soup_message_get_status (msg) == 200 &&
      g_strstr_len (g_bytes_get_data (resp, NULL), g_bytes_get_size (resp),
      "stored") != NULL;
  if (resp)
    g_bytes_unref (resp);
  g_bytes_unref (req);
  g_object_unref (msg);
  return ok;
}

static gpointer
sender_thread (gpointer data)
{
  Senders *s = data;
  SoupSession *session = soup_session_new ();

  while (bench_now_ms () < s->deadline) {
    gint i = g_atomic_int_add (&s->next, 1);

    if (i >= (gint) s->pool->len)
      break;
    if (post (session, s->url, g_ptr_array_index (s->pool, i)))
      g_atomic_int_inc (&s->stored);
    else
      g_atomic_int_inc (&s->refused);
  }
  g_object_unref (session);
  return NULL;
}

/* stored deliveries per second with @k senders over @ms */
static gdouble
listen_rate (const gchar * url, GPtrArray * pool, guint * used, guint k,
    guint ms, guint * refused)
{
  Senders s = { url, pool, (gint) * used, 0, 0, 0 };
  GThread *threads[8];
  gdouble t0 = bench_now_ms (), t1;
  guint i;

  s.deadline = t0 + ms;
  for (i = 0; i < k; i++)
    threads[i] = g_thread_new ("sender", sender_thread, &s);
  for (i = 0; i < k; i++)
    g_thread_join (threads[i]);
  t1 = bench_now_ms ();
  *used = MIN ((guint) s.next, pool->len);
  *refused += s.refused;
  return s.stored * 1000.0 / (t1 - t0);
}

/* appends + fdatasync per second over @ms: the floor of durability */
static gdouble
fsync_rate (const gchar * dir, guint ms)
{
  gchar *path = g_build_filename (dir, "floor.log", NULL);
  gint fd = g_open (path, O_WRONLY | O_CREAT | O_APPEND, 0600);
  gdouble t0 = bench_now_ms (), t;
  guint n = 0;

  g_assert (fd >= 0);
  do {
    if (write (fd, body, strlen (body)) < 0 || fdatasync (fd) < 0)
      g_error ("write to %s failed", path);
    n++;
    t = bench_now_ms ();
  } while (t - t0 < ms);
  close (fd);
  g_unlink (path);
  g_free (path);
  return n * 1000.0 / (t - t0);
}

static guint
count_lines (const gchar * path)
{
  gchar *text = NULL;
  guint n = 0;
  gchar *p;

  if (g_file_get_contents (path, &text, NULL, NULL))
    for (p = text; *p; p++)
      n += *p == '\n';
  g_free (text);
  return n;
}

static void
remove_dir (const gchar * dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;

  while (d && (name = g_dir_read_name (d))) {
    gchar *path = g_build_filename (dir, name, NULL);

    g_unlink (path);
    g_free (path);
  }
  if (d)
    g_dir_close (d);
  g_rmdir (dir);
}

static void
bench_listen (JsonBuilder * b, guint blocks)
{
  gchar *cli = bench_build_path ("tools/cli/gst-session");
  const gchar *help[] = { cli, "webhook", "listen", "--help", NULL };
  gint status = -1;
  gchar *parent, *dir, *db, *jsonl, *url = NULL, *jwks, *port;
  GArray *floor = bench_values_new (), *one = bench_values_new ();
  GArray *four = bench_values_new ();
  KeyServer *ks;
  GSubprocess *proc;
  GDataInputStream *in;
  GPtrArray *pool;
  guint used = 0, refused = 0, ms, i, stored_total, lines = 0;
  gdouble lag = NAN, t_end;

  json_builder_set_member_name (b, "listen");
  json_builder_begin_object (b);
  if (!g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE) ||
      !g_spawn_sync (NULL, (gchar **) help, NULL,
          G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL,
          NULL, NULL, NULL, &status, NULL) || status != 0) {
    bench_result_string (b, "skipped", "gst-session webhook listen is not "
        "in this build");
    json_builder_end_object (b);
    g_free (cli);
    return;
  }
  ms = bench_quick ? 300 : 2000;
  parent = bench_build_path ("tests/bench");
  g_mkdir_with_parents (parent, 0700);
  dir = g_build_filename (parent, "listen-XXXXXX", NULL);
  g_mkdtemp (dir);
  db = g_build_filename (dir, "deliveries.db", NULL);
  jsonl = g_build_filename (dir, "deliveries.jsonl", NULL);
  ks = key_server_start ();
  jwks = g_strdup_printf ("--jwks-url=%s", ks->url);
  port = g_strdup ("--port=0");
  {
    gchar *a_db = g_strdup_printf ("--db=%s", db);
    gchar *a_jsonl = g_strdup_printf ("--jsonl=%s", jsonl);
    const gchar *argv[] = { cli, "webhook", "listen", port, jwks, a_db,
      a_jsonl, NULL
    };

    proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE |
        (g_getenv ("BENCH_VERBOSE") ? 0 : G_SUBPROCESS_FLAGS_STDERR_SILENCE),
        NULL);
    g_free (a_db);
    g_free (a_jsonl);
  }
  g_assert (proc != NULL);
  in = g_data_input_stream_new (g_subprocess_get_stdout_pipe (proc));
  url = g_data_input_stream_read_line (in, NULL, NULL, NULL);
  g_object_unref (in);
  g_assert (url != NULL);

  /* signed beforehand: signing is not what is measured */
  pool = g_ptr_array_new_with_free_func (delivery_free);
  for (i = 0; i < (bench_quick ? 200 : 20000); i++)
    g_ptr_array_add (pool, delivery_new ());
  /* the first delivery fetches the key set */
  listen_rate (url, pool, &used, 1, 1, &refused);

  t_end = bench_now_ms ();
  for (i = 0; i < blocks && used < pool->len; i++) {
    bench_values_add (floor, fsync_rate (dir, ms));
    bench_values_add (one, listen_rate (url, pool, &used, 1, ms, &refused));
    bench_values_add (four, listen_rate (url, pool, &used, 4, ms, &refused));
  }
  t_end = bench_now_ms ();
  stored_total = used - refused;
  /* processing goes on after the 200s: how long until all are done */
  while (bench_now_ms () - t_end < 60000) {
    lines = count_lines (jsonl);
    if (lines >= stored_total) {
      lag = bench_now_ms () - t_end;
      break;
    }
    g_usleep (20000);
  }
  g_printerr ("webhook listen: %.0f/s with 1 sender, %.0f/s with 4; "
      "append+fdatasync floor %.0f/s; %u refused; all processed %.0f ms "
      "after the last 200\n", bench_median (one), bench_median (four),
      bench_median (floor), refused, lag);

  bench_result_values (b, "stored_1_sender", one);
  bench_result_values (b, "stored_4_senders", four);
  bench_result_values (b, "fsync_floor", floor);
  bench_result_int (b, "deliveries", used);
  bench_result_int (b, "refused", refused);
  bench_result_int (b, "processed_lines", lines);
  bench_result_double (b, "processed_lag_ms", lag);
  json_builder_end_object (b);

  g_subprocess_send_signal (proc, SIGTERM);
  g_subprocess_wait (proc, NULL, NULL);
  g_object_unref (proc);
  key_server_stop (ks);
  g_ptr_array_unref (pool);
  remove_dir (dir);
  g_array_unref (floor);
  g_array_unref (one);
  g_array_unref (four);
  g_free (url);
  g_free (jwks);
  g_free (port);
  g_free (db);
  g_free (jsonl);
  g_free (dir);
  g_free (parent);
  g_free (cli);
}

int
main (int argc, char **argv)
{
  GArray *lib = bench_values_new (), *vals = bench_values_new ();
  GArray *raw = bench_values_new ();
  JsonBuilder *b;
  guint blocks, ms, i;

  bench_init (&argc, &argv, "Webhook deliveries verified per second, vs "
      "nettle's Ed25519 verification alone", NULL, 7);
  blocks = bench_quick ? 2 : bench_runs;
  ms = bench_quick ? 100 : 700;
  setup ();
  if (!lib_verify () || !lib_verify_values () || !raw_verify ())
    g_error ("the fixed delivery does not verify");

  for (i = 0; i < blocks; i++) {
    /* rotate the order */
    Op order[3] = { lib_verify, lib_verify_values, raw_verify };
    GArray *into[3] = { lib, vals, raw };
    guint k;

    for (k = 0; k < 3; k++)
      bench_values_add (into[(i + k) % 3], rate (order[(i + k) % 3], ms));
  }
  g_printerr ("webhook: %.0f/s verify, %.0f/s verify_values, %.0f/s nettle "
      "alone\n", bench_median (lib), bench_median (vals), bench_median (raw));

  b = bench_result_begin ("webhook");
  bench_result_int (b, "body_bytes", strlen (body));
  bench_result_values (b, "verify", lib);
  bench_result_values (b, "verify_values", vals);
  bench_result_values (b, "nettle", raw);
  bench_listen (b, bench_quick ? 1 : MAX (3, bench_runs / 2));
  bench_result_end (b);

  g_array_unref (lib);
  g_array_unref (vals);
  g_array_unref (raw);
  soup_message_headers_unref (headers);
  gst_session_webhook_key_set_unref (keys);
  g_free (body);
  g_free (message);
  g_free (timestamp);
  g_free (sig_hex);
  g_free (keyset);
  g_free (answer_text);
  return 0;
}
