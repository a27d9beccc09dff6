/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>
#include <glib/gstdio.h>

#include "testkeys.h"

gchar *
b64url (const guint8 * data, gsize len, gboolean pad)
{
  gchar *s = g_base64_encode (data, len), *p;

  for (p = s; *p; p++) {
    if (*p == '+')
      *p = '-';
    else if (*p == '/')
      *p = '_';
    else if (*p == '=' && !pad)
      *p = '\0';
  }
  return s;
}

static gchar *keys_dir;
static guint keys_serial;

/* Runs openssl with @args; FALSE (and a message) when it fails. */
static gboolean
run_openssl (const gchar * const *args)
{
  GPtrArray *argv = g_ptr_array_new ();
  gchar *err_text = NULL;
  gint status = 0;
  GError *error = NULL;
  gboolean ok;

  g_ptr_array_add (argv, (gpointer) "openssl");
  for (; *args; args++)
    g_ptr_array_add (argv, (gpointer) * args);
  g_ptr_array_add (argv, NULL);
  ok = g_spawn_sync (NULL, (gchar **) argv->pdata, NULL,
      G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
      &err_text, &status, &error) && g_spawn_check_wait_status (status, NULL);
  if (!ok)
    GST_WARNING ("openssl %s failed: %s%s", (gchar *) argv->pdata[1],
        error ? error->message : "", err_text ? err_text : "");
  g_clear_error (&error);
  g_free (err_text);
  g_ptr_array_free (argv, TRUE);
  return ok;
}

/* A new file name in the keys' directory, made at the first call */
static gchar *
keys_path (const gchar * ext)
{
  if (keys_dir == NULL) {
    keys_dir = g_dir_make_tmp ("gst-session-keys-XXXXXX", NULL);
    fail_unless (keys_dir != NULL);
  }
  return g_strdup_printf ("%s/f%u.%s", keys_dir, keys_serial++, ext);
}

void
test_keys_cleanup (void)
{
  GDir *dir;
  const gchar *name;

  if (keys_dir == NULL)
    return;
  dir = g_dir_open (keys_dir, 0, NULL);
  while (dir && (name = g_dir_read_name (dir))) {
    gchar *path = g_build_filename (keys_dir, name, NULL);

    g_unlink (path);
    g_free (path);
  }
  if (dir)
    g_dir_close (dir);
  g_rmdir (keys_dir);
  g_clear_pointer (&keys_dir, g_free);
}

TestKey *
test_key_new (void)
{
  TestKey *key;
  gchar *der, *data = NULL;
  gsize len = 0;
  gchar *program = g_find_program_in_path ("openssl");

  if (program == NULL)
    return NULL;
  g_free (program);
  key = g_new0 (TestKey, 1);
  key->pem = keys_path ("pem");
  der = keys_path ("der");
  {
    const gchar *genpkey[] = { "genpkey", "-algorithm", "ed25519", "-out",
      key->pem, NULL
    };
    const gchar *pkey[] = { "pkey", "-in", key->pem, "-pubout", "-outform",
      "DER", "-out", der, NULL
    };

    if (!run_openssl (genpkey) || !run_openssl (pkey)
        || !g_file_get_contents (der, &data, &len, NULL) || len < 32) {
      g_free (key->pem);
      g_free (key);
      key = NULL;
    } else {
      /* the DER SubjectPublicKeyInfo ends with the raw key */
      memcpy (key->pub, data + len - 32, 32);
      key->x = b64url (key->pub, 32, FALSE);
    }
  }
  g_free (data);
  g_free (der);
  return key;
}

void
test_key_free (TestKey * key)
{
  if (key == NULL)
    return;
  g_free (key->pem);
  g_free (key->x);
  g_free (key);
}

gchar *
test_key_sign (const TestKey * key, const gchar * message)
{
  gchar *msg = keys_path ("msg"), *sig = keys_path ("sig"), *data = NULL;
  const gchar *pkeyutl[] = { "pkeyutl", "-sign", "-inkey", key->pem,
    "-rawin", "-in", msg, "-out", sig, NULL
  };
  gchar *hex;
  gsize len = 0, i;

  fail_unless (g_file_set_contents (msg, message, -1, NULL));
  fail_unless (run_openssl (pkeyutl), "openssl pkeyutl -sign failed");
  fail_unless (g_file_get_contents (sig, &data, &len, NULL));
  fail_unless_equals_int (len, 64);
  hex = g_malloc (129);
  for (i = 0; i < 64; i++)
    g_snprintf (hex + 2 * i, 3, "%02x", (guint8) data[i]);
  g_unlink (msg);
  g_unlink (sig);
  g_free (data);
  g_free (msg);
  g_free (sig);
  return hex;
}

gchar *
test_key_sign_delivery (const TestKey * key, const gchar * request_id,
    const gchar * user_id, const gchar * timestamp, const gchar * body,
    gsize body_length)
{
  gchar *hash = g_compute_checksum_for_data (G_CHECKSUM_SHA256,
      (const guchar *) body, body_length);
  gchar *message = g_strdup_printf ("%s\n%s\n%s\n%s", request_id, user_id,
      timestamp, hash);
  gchar *hex = test_key_sign (key, message);

  g_free (message);
  g_free (hash);
  return hex;
}
