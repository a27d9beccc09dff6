/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The DTLS key cache (gstsessiondtlskey.c) across processes: a child
 * (--child) takes worldsrc to READY and back and prints its certificate;
 * the parent compares that key with the cache file.
 */

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

static const gchar *self_path;

/* ---- the child ---- */

static int
child_main (void)
{
  GstElement *src, *dec;
  gchar *pem = NULL;

  src = gst_element_factory_make ("worldsrc", NULL);
  if (src == NULL)
    return 2;
  if (gst_element_set_state (src, GST_STATE_READY) == GST_STATE_CHANGE_FAILURE)
    return 3;
  gst_element_set_state (src, GST_STATE_NULL);
  gst_object_unref (src);
  dec = gst_element_factory_make ("dtlssrtpdec", NULL);
  if (dec == NULL)
    return 4;
  g_object_get (dec, "pem", &pem, NULL);
  gst_object_unref (dec);
  if (pem == NULL)
    return 5;
  g_print ("%s", pem);
  g_free (pem);
  return 0;
}

/* ---- the parent ---- */

/* Runs a child with GST_SESSION_DTLS_KEY_CACHE=@cache (NULL: unset) and
 * XDG_CACHE_HOME=@home; returns the public key of its certificate */
static EVP_PKEY *
run_child (const gchar * cache, const gchar * home)
{
  gchar *argv[] = { (gchar *) self_path, (gchar *) "--child", NULL };
  gchar **envp = g_get_environ ();
  gchar *out = NULL, *err = NULL;
  GError *error = NULL;
  EVP_PKEY *key = NULL;
  X509 *cert = NULL;
  gint status;
  BIO *bio;

  envp = cache ? g_environ_setenv (envp, "GST_SESSION_DTLS_KEY_CACHE", cache,
      TRUE) : g_environ_unsetenv (envp, "GST_SESSION_DTLS_KEY_CACHE");
  envp = g_environ_setenv (envp, "XDG_CACHE_HOME", home, TRUE);
  fail_unless (g_spawn_sync (NULL, argv, envp, G_SPAWN_DEFAULT, NULL, NULL,
          &out, &err, &status, &error), "%s", error ? error->message : "");
  fail_unless (g_spawn_check_wait_status (status, NULL), "the child failed "
      "(%d): %s", status, err);
  bio = BIO_new_mem_buf (out, -1);
  cert = PEM_read_bio_X509 (bio, NULL, NULL, NULL);
  fail_unless (cert != NULL, "no certificate: %s", out);
  key = X509_get_pubkey (cert);
  fail_unless (key != NULL);
  fail_unless_equals_int (EVP_PKEY_get_bits (key), 2048);
  X509_free (cert);
  BIO_free (bio);
  g_strfreev (envp);
  g_free (out);
  g_free (err);
  return key;
}

/* The private key in the cache file @path (mode 0600), or NULL */
static EVP_PKEY *
cached_key (const gchar * path)
{
  EVP_PKEY *key = NULL;
  struct stat st;
  FILE *f;

  if (g_stat (path, &st) != 0)
    return NULL;
  fail_unless_equals_int (st.st_mode & 0777, 0600);
  f = fopen (path, "r");
  fail_unless (f != NULL);
  key = PEM_read_PrivateKey (f, NULL, NULL, NULL);
  fclose (f);
  return key;
}

typedef struct
{
  gchar *dir;                   /* removed at the end */
  gchar *home;                  /* XDG_CACHE_HOME of the children */
  gchar *path;                  /* the cache file */
} Dirs;

static void
dirs_init (Dirs * d)
{
  d->dir = g_dir_make_tmp ("gst-session-dtls-XXXXXX", NULL);
  fail_unless (d->dir != NULL);
  d->home = g_build_filename (d->dir, "home", NULL);
  d->path = g_build_filename (d->dir, "cache", "key.pem", NULL);
}

static void
remove_tree (const gchar * path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const gchar *name;

  if (dir == NULL) {
    g_remove (path);
    return;
  }
  while ((name = g_dir_read_name (dir))) {
    gchar *child = g_build_filename (path, name, NULL);

    if (g_file_test (child, G_FILE_TEST_IS_SYMLINK))
      g_remove (child);
    else
      remove_tree (child);
    g_free (child);
  }
  g_dir_close (dir);
  g_rmdir (path);
}

static void
dirs_clear (Dirs * d)
{
  remove_tree (d->dir);
  g_free (d->dir);
  g_free (d->home);
  g_free (d->path);
}

/* No cache: the first process makes the key and stores it (0600, in a
 * directory of 0700); the next takes it, and leaves the file alone */
GST_START_TEST (test_made_then_taken)
{
  EVP_PKEY *made, *again, *stored;
  gchar *before, *after, *dir;
  struct stat st;
  Dirs d;

  dirs_init (&d);
  made = run_child (d.path, d.home);
  stored = cached_key (d.path);
  fail_unless (stored != NULL, "no key stored");
  fail_unless (EVP_PKEY_eq (made, stored) == 1, "the stored key is not the "
      "process's");
  dir = g_path_get_dirname (d.path);
  fail_unless (g_stat (dir, &st) == 0);
  fail_unless_equals_int (st.st_mode & 0777, 0700);
  fail_unless (g_file_get_contents (d.path, &before, NULL, NULL));
  again = run_child (d.path, d.home);
  fail_unless (EVP_PKEY_eq (again, stored) == 1, "the second process made "
      "a key of its own");
  fail_unless (g_file_get_contents (d.path, &after, NULL, NULL));
  fail_unless_equals_string (before, after);
  EVP_PKEY_free (made);
  EVP_PKEY_free (again);
  EVP_PKEY_free (stored);
  g_free (before);
  g_free (after);
  g_free (dir);
  dirs_clear (&d);
}

GST_END_TEST;

/* Puts @key in the cache file as a PEM private key, mode @mode */
static void
store (const gchar * path, EVP_PKEY * key, guint mode)
{
  FILE *f = fopen (path, "w");

  fail_unless (f != NULL);
  fail_unless (PEM_write_PrivateKey (f, key, NULL, NULL, 0, NULL, NULL));
  fclose (f);
  fail_unless (g_chmod (path, mode) == 0);
}

/* A cache another user may read, one of garbage, one two days old, one
 * that is a symbolic link: not taken, replaced by a new key (the link's
 * target untouched) */
GST_START_TEST (test_unsafe_cache_not_taken)
{
  EVP_PKEY *made, *key, *stored;
  struct utimbuf old;
  gchar *target, *contents;
  Dirs d;

  dirs_init (&d);
  key = run_child (d.path, d.home);
  EVP_PKEY_free (key);
  /* the private key, to store again as each case needs */
  made = cached_key (d.path);
  fail_unless (made != NULL);

  /* readable by others */
  store (d.path, made, 0644);
  key = run_child (d.path, d.home);
  fail_unless (EVP_PKEY_eq (key, made) != 1, "a key others may read was "
      "taken");
  stored = cached_key (d.path);
  fail_unless (stored && EVP_PKEY_eq (stored, key) == 1);
  EVP_PKEY_free (key);
  EVP_PKEY_free (stored);

  /* garbage */
  fail_unless (g_file_set_contents_full (d.path, "-----BEGIN PRIVATE KEY"
          "-----\nnot a key\n", -1, G_FILE_SET_CONTENTS_NONE, 0600, NULL));
  key = run_child (d.path, d.home);
  stored = cached_key (d.path);
  fail_unless (stored && EVP_PKEY_eq (stored, key) == 1);
  EVP_PKEY_free (key);
  EVP_PKEY_free (stored);

  /* two days old */
  store (d.path, made, 0600);
  old.actime = old.modtime = time (NULL) - 2 * 24 * 3600;
  fail_unless (utime (d.path, &old) == 0);
  key = run_child (d.path, d.home);
  fail_unless (EVP_PKEY_eq (key, made) != 1, "a two-day-old key was taken");
  EVP_PKEY_free (key);

  /* a symbolic link to a key of ours */
  target = g_build_filename (d.dir, "elsewhere.pem", NULL);
  store (target, made, 0600);
  g_remove (d.path);
  fail_unless (symlink (target, d.path) == 0, "%s", g_strerror (errno));
  key = run_child (d.path, d.home);
  fail_unless (EVP_PKEY_eq (key, made) != 1, "a key through a link was "
      "taken");
  fail_if (g_file_test (d.path, G_FILE_TEST_IS_SYMLINK));
  stored = cached_key (target);
  fail_unless (stored && EVP_PKEY_eq (stored, made) == 1, "the link's target "
      "changed");
  EVP_PKEY_free (key);
  EVP_PKEY_free (stored);

  fail_unless (g_file_get_contents (d.path, &contents, NULL, NULL));
  fail_unless (strstr (contents, "PRIVATE KEY") != NULL);
  g_free (contents);
  g_free (target);
  EVP_PKEY_free (made);
  dirs_clear (&d);
}

GST_END_TEST;

/* GST_SESSION_DTLS_KEY_CACHE=0: each process makes its own key and
 * stores none; unset: the user's cache directory holds it */
GST_START_TEST (test_off_and_default)
{
  EVP_PKEY *a, *b, *stored;
  gchar *default_path;
  Dirs d;

  dirs_init (&d);
  a = run_child ("0", d.home);
  b = run_child ("0", d.home);
  fail_unless (EVP_PKEY_eq (a, b) != 1, "two processes, one key");
  fail_if (g_file_test (d.home, G_FILE_TEST_EXISTS), "something was stored");
  EVP_PKEY_free (a);
  EVP_PKEY_free (b);

  default_path = g_build_filename (d.home, "gst-session", "dtls-key.pem", NULL);
  a = run_child (NULL, d.home);
  stored = cached_key (default_path);
  fail_unless (stored && EVP_PKEY_eq (stored, a) == 1, "no key in %s",
      default_path);
  EVP_PKEY_free (a);
  EVP_PKEY_free (stored);
  g_free (default_path);
  dirs_clear (&d);
}

GST_END_TEST;

static Suite *
dtls_key_suite (void)
{
  Suite *s = suite_create ("dtls-key");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_made_then_taken);
  tcase_add_test (tc, test_unsafe_cache_not_taken);
  tcase_add_test (tc, test_off_and_default);
  return s;
}

int
main (int argc, char **argv)
{
  self_path = argv[0];
  if (argc > 1 && g_strcmp0 (argv[1], "--child") == 0) {
    gst_init (NULL, NULL);
    return child_main ();
  }
  gst_check_init (&argc, &argv);
  return gst_check_run_suite (dtls_key_suite (), "dtls-key", __FILE__);
}
