/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The process's DTLS key, kept across processes: GStreamer 1.22 makes a
 * new RSA key in each process's first dtlsdec, so while this module
 * creates it, OpenSSL's key generation takes the key from a user cache
 * (docs/worldsrc.md, The DTLS key).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <glib/gstdio.h>

/* the RSA_METHOD interface is deprecated in OpenSSL 3.0, and is the one
 * way to reach the key that GStreamer 1.22's RSA_generate_key_ex makes */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "gstsessiondtlskey.h"

GST_DEBUG_CATEGORY_STATIC (dtls_key_debug);
#define GST_CAT_DEFAULT dtls_key_debug

/* what GStreamer 1.22's DTLS certificate asks for */
#define KEY_BITS 2048
/* a cached key older than this is made anew */
#define KEY_MAX_AGE (24 * 60 * 60)
/* a PEM private key of 2048 bits is some 1.7 kB */
#define KEY_FILE_MAX 16384

/* the thread whose key generation takes the cache */
static GThread *hook_thread;

static gchar *
cache_path (void)
{
  const gchar *env = g_getenv (GST_SESSION_DTLS_KEY_CACHE_ENV);

  if (env)
    return env[0] == '\0' || g_strcmp0 (env, "0") == 0 ? NULL : g_strdup (env);
  return g_build_filename (g_get_user_cache_dir (), "gst-session",
      "dtls-key.pem", NULL);
}

/* never a prompt for a passphrase */
static int
no_passphrase (char *buf, int size, int rwflag, void *u)
{
  return -1;
}

/* The cached key at @path, or NULL when there is none that may be used:
 * a regular file of ours that no one else may read, small, recent, an
 * RSA key of KEY_BITS */
static EVP_PKEY *
read_cached (const gchar * path)
{
  gchar buf[KEY_FILE_MAX];
  EVP_PKEY *pkey = NULL;
  struct stat st;
  gssize n;
  time_t now = time (NULL);
  BIO *bio;
  int fd;

  fd = open (path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return NULL;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) ||
      st.st_uid != getuid () || (st.st_mode & 077) != 0 ||
      st.st_size <= 0 || st.st_size >= KEY_FILE_MAX ||
      st.st_mtime > now + 60 || now - st.st_mtime > KEY_MAX_AGE) {
    GST_DEBUG ("the key cache is not used (its type, owner, mode, size or "
        "age)");
    close (fd);
    return NULL;
  }
  n = read (fd, buf, sizeof (buf));
  close (fd);
  if (n <= 0 || n != st.st_size)
    return NULL;
  bio = BIO_new_mem_buf (buf, (int) n);
  if (bio)
    pkey = PEM_read_bio_PrivateKey (bio, NULL, no_passphrase, NULL);
  BIO_free (bio);
  OPENSSL_cleanse (buf, sizeof (buf));
  if (pkey && (EVP_PKEY_get_base_id (pkey) != EVP_PKEY_RSA ||
          EVP_PKEY_get_bits (pkey) != KEY_BITS)) {
    EVP_PKEY_free (pkey);
    pkey = NULL;
  }
  if (pkey == NULL)
    GST_DEBUG ("the key cache holds no %d-bit RSA key", KEY_BITS);
  return pkey;
}

/* Stores @rsa at @path (mode 0600, its directory 0700), replacing what
 * was there at once */
static void
write_cached (const gchar * path, RSA * rsa)
{
  EVP_PKEY *pkey = EVP_PKEY_new ();
  BIO *bio = BIO_new (BIO_s_mem ());
  gchar *dir = g_path_get_dirname (path);
  GError *error = NULL;
  char *data;
  long len;

  if (pkey && bio && EVP_PKEY_set1_RSA (pkey, rsa) &&
      PEM_write_bio_PrivateKey (bio, pkey, NULL, NULL, 0, NULL, NULL) &&
      (len = BIO_get_mem_data (bio, &data)) > 0 &&
      g_mkdir_with_parents (dir, 0700) == 0 &&
      !g_file_set_contents_full (path, data, len,
          G_FILE_SET_CONTENTS_CONSISTENT, 0600, &error)) {
    GST_DEBUG ("the key cache was not written: %s", error->message);
    g_clear_error (&error);
  }
  BIO_free (bio);
  EVP_PKEY_free (pkey);
  g_free (dir);
}

static BIGNUM *
dup_bn (const BIGNUM * bn)
{
  return bn ? BN_dup (bn) : NULL;
}

/* Gives @to the components of @from; TRUE when all were there */
static gboolean
copy_key (RSA * to, EVP_PKEY * from)
{
  const RSA *r = EVP_PKEY_get0_RSA (from);
  const BIGNUM *n = NULL, *e = NULL, *d = NULL, *p = NULL, *q = NULL;
  const BIGNUM *dmp1 = NULL, *dmq1 = NULL, *iqmp = NULL;

  if (r == NULL)
    return FALSE;
  RSA_get0_key (r, &n, &e, &d);
  RSA_get0_factors (r, &p, &q);
  RSA_get0_crt_params (r, &dmp1, &dmq1, &iqmp);
  if (!n || !e || !d || !p || !q || !dmp1 || !dmq1 || !iqmp)
    return FALSE;
  return RSA_set0_key (to, dup_bn (n), dup_bn (e), dup_bn (d)) &&
      RSA_set0_factors (to, dup_bn (p), dup_bn (q)) &&
      RSA_set0_crt_params (to, dup_bn (dmp1), dup_bn (dmq1), dup_bn (iqmp));
}

/* The hooked RSA_METHOD's key generation. Another thread's key (or one
 * not shaped as GStreamer's) is made by OpenSSL's own method, as it
 * would have been; the one of the thread creating the first dtlsdec comes
 * from the cache, or is made and stored there. */
static int
cached_keygen (RSA * rsa, int bits, BIGNUM * e, BN_GENCB * cb)
{
  gboolean ours = g_thread_self () == hook_thread && bits == KEY_BITS &&
      e && BN_is_word (e, RSA_F4);
  gchar *path = ours ? cache_path () : NULL;
  EVP_PKEY *cached;
  int ok;

  cached = path ? read_cached (path) : NULL;

  if (cached) {
    ok = copy_key (rsa, cached);
    EVP_PKEY_free (cached);
    GST_INFO ("the DTLS key from the cache: %s", ok ? "taken" : "unusable");
    if (ok) {
      g_free (path);
      return 1;
    }
  }
  /* OpenSSL's own generation: the object's method set back first */
  RSA_set_method (rsa, RSA_PKCS1_OpenSSL ());
  ok = RSA_generate_key_ex (rsa, bits, e, cb);
  if (ok && path)
    write_cached (path, rsa);
  g_free (path);
  return ok;
}

/* Makes the process's DTLS certificate, once (GStreamer's DTLS elements
 * make it under a g_once; a later call finds it made). Call from a thread
 * of the element's own. */
void
gst_session_dtls_key_prepare (void)
{
  static RSA_METHOD *method;
  static GMutex lock;
  const RSA_METHOD *before;
  GstElement *dec;

  GST_DEBUG_CATEGORY_INIT (dtls_key_debug, "sessiondtlskey", 0,
      "the process's DTLS key");
  g_mutex_lock (&lock);
  if (method == NULL) {
    method = RSA_meth_dup (RSA_PKCS1_OpenSSL ());
    if (method && !RSA_meth_set_keygen (method, cached_keygen)) {
      RSA_meth_free (method);
      method = NULL;
    }
  }
  before = RSA_get_default_method ();
  if (method) {
    hook_thread = g_thread_self ();
    RSA_set_default_method (method);
  }
  dec = gst_element_factory_make ("dtlssrtpdec", NULL);
  if (method) {
    RSA_set_default_method (before);
    hook_thread = NULL;
  }
  g_mutex_unlock (&lock);
  if (dec)
    gst_object_unref (dec);
}
