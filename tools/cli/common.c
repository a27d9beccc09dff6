/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gst-session: option parsing, errors, JSON output, header text and
 * durable files shared by the commands.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "cli.h"

/* Shown in every command's --help; the values are taken out of argv by
 * main() before a command parses its own options. */
static gboolean dummy_json;
static gint dummy_timeout;
static gchar *dummy_key;
static const GOptionEntry global_entries[] = {
  {"json", 0, 0, G_OPTION_ARG_NONE, &dummy_json,
      "Machine-readable output (one JSON document per line on stdout)", NULL},
  {"timeout", 0, 0, G_OPTION_ARG_INT, &dummy_timeout,
      "Longest wait for the service, in milliseconds (0 waits forever)", "MS"},
  {"api-key", 0, 0, G_OPTION_ARG_STRING, &dummy_key,
      "The API key (better: the environment variable " CLI_API_KEY_ENV
        "); never printed", "KEY"},
  {NULL}
};

gboolean
cli_parse_options (CliGlobal * global, const gchar * command,
    const gchar * parameters, const gchar * description,
    const GOptionEntry * entries, gint * argc, gchar *** argv)
{
  GOptionContext *ctx;
  GOptionGroup *group;
  GError *error = NULL;
  gchar *param_text;
  gint split = *argc, n, i;
  gchar **head;
  gboolean ok;

  /* everything after "--" is a command to run, not options */
  for (i = 1; i < *argc; i++) {
    if (g_str_equal ((*argv)[i], "--")) {
      split = i;
      break;
    }
  }

  /* GOption's usage line is "<prgname> [OPTION…] <parameters>" */
  param_text = g_strdup_printf ("gst-session %s", command);
  g_set_prgname (param_text);
  g_free (param_text);
  ctx = g_option_context_new (parameters);
  g_option_context_set_summary (ctx, description);
  g_option_context_set_description (ctx, CLI_EXIT_CODES_HELP);
  if (entries)
    g_option_context_add_main_entries (ctx, entries, NULL);
  group = g_option_group_new ("global", "Global options:",
      "Show the global options", NULL, NULL);
  g_option_group_add_entries (group, global_entries);
  g_option_context_add_group (ctx, group);

  head = g_new0 (gchar *, split + 1);
  for (i = 0; i < split; i++)
    head[i] = (*argv)[i];
  n = split;
  ok = g_option_context_parse (ctx, &n, &head, &error);
  if (!ok) {
    cli_fail (global, CLI_EXIT_USAGE, "%s (see gst-session %s --help)",
        error->message, command);
    g_clear_error (&error);
  } else {
    /* the words GOption left, then "--" and the command */
    for (i = 0; i < n; i++)
      (*argv)[i] = head[i];
    for (i = split; i < *argc; i++)
      (*argv)[n++] = (*argv)[i];
    (*argv)[n] = NULL;
    *argc = n;
  }
  g_free (head);
  g_option_context_free (ctx);
  return ok;
}

static const gchar *
exit_code_name (gint code)
{
  switch (code) {
    case CLI_EXIT_INVALID:
      return "invalid";
    case CLI_EXIT_USAGE:
      return "usage";
    case CLI_EXIT_REFUSED:
      return "refused";
    case CLI_EXIT_RATE_LIMITED:
      return "rate-limited";
    case CLI_EXIT_TRANSIENT:
      return "transient";
    case CLI_EXIT_INTERNAL:
      return "internal";
    default:
      return "ok";
  }
}

static gint
fail_valist (const CliGlobal * global, gint code, JsonObject * extra,
    const gchar * format, va_list args)
{
  gchar *message = g_strdup_vprintf (format, args);

  g_printerr ("gst-session: %s\n", message);
  if (global &&global->json) {
    JsonObject * err = extra ? extra : json_object_new ();
    JsonObject *root = json_object_new ();
    JsonNode *node = json_node_new (JSON_NODE_OBJECT);

    json_object_set_string_member (err, "kind", exit_code_name (code));
    json_object_set_int_member (err, "exit_code", code);
    json_object_set_string_member (err, "message", message);
    json_object_set_object_member (root, "error", err);
    json_node_take_object (node, root);
    cli_print_json (node);
    json_node_unref (node);
  } else if (extra) {
    json_object_unref (extra);
  }
  g_free (message);
  return code;
}

gint
cli_fail (const CliGlobal * global, gint code, const gchar * format, ...)
{
  va_list args;

  va_start (args, format);
  code = fail_valist (global, code, NULL, format, args);
  va_end (args);
  return code;
}

gint
cli_fail_with (const CliGlobal * global, gint code, JsonObject * extra,
    const gchar * format, ...)
{
  va_list args;

  va_start (args, format);
  code = fail_valist (global, code, extra, format, args);
  va_end (args);
  return code;
}

gchar *
cli_json_to_string (JsonNode * node, gboolean pretty)
{
  return gst_session_json_write (node, pretty);
}

void
cli_print_json (JsonNode * node)
{
  gchar *text = cli_json_to_string (node, FALSE);

  g_print ("%s\n", text);
  fflush (stdout);
  g_free (text);
}

/* ---------------------------------------------------------------------- */
/* headers                                                                */

static void
append_header (const char *name, const char *value, gpointer user_data)
{
  g_string_append_printf (user_data, "%s: %s\n", name, value);
}

gchar *
cli_headers_to_text (SoupMessageHeaders * headers)
{
  GString *s = g_string_new (NULL);

  soup_message_headers_foreach (headers, append_header, s);
  return g_string_free (s, FALSE);
}

static void
add_header_json (const char *name, const char *value, gpointer user_data)
{
  JsonObject *obj = user_data;
  const gchar *old = json_object_has_member (obj, name) ?
      json_object_get_string_member (obj, name) : NULL;

  if (old) {
    gchar *joined = g_strconcat (old, ", ", value, NULL);

    json_object_set_string_member (obj, name, joined);
    g_free (joined);
  } else {
    json_object_set_string_member (obj, name, value);
  }
}

JsonNode *
cli_headers_to_json (SoupMessageHeaders * headers)
{
  JsonObject *obj = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  soup_message_headers_foreach (headers, add_header_json, obj);
  json_node_take_object (node, obj);
  return node;
}

static SoupMessageHeaders *
headers_from_json (const gchar * text, gsize length, GError ** error)
{
  SoupMessageHeaders *headers = NULL;
  JsonObjectIter iter;
  const gchar *name;
  JsonNode *value;
  JsonNode *root;

  /* a flat object of strings: the JSON gate's limits say so */
  root = gst_session_json_parse (text, length, 1024 * 1024, 1, error);
  if (root == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (root)) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
        "the headers are JSON but not an object");
    goto out;
  }
  headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_REQUEST);
  json_object_iter_init (&iter, json_node_get_object (root));
  while (json_object_iter_next (&iter, &name, &value)) {
    if (!JSON_NODE_HOLDS_VALUE (value) ||
        json_node_get_value_type (value) != G_TYPE_STRING) {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
          "the header \"%s\" is not a string", name);
      g_clear_pointer (&headers, soup_message_headers_unref);
      goto out;
    }
    soup_message_headers_append (headers, name, json_node_get_string (value));
  }
out:
  json_node_unref (root);
  return headers;
}

SoupMessageHeaders *
cli_headers_parse (const gchar * text, gsize length, GError ** error)
{
  SoupMessageHeaders *headers;
  gchar *copy, **lines;
  guint i, n = 0;

  while (length > 0 && g_ascii_isspace (*text)) {
    text++;
    length--;
  }
  if (length > 0 && text[0] == '{')
    return headers_from_json (text, length, error);
  if (memchr (text, '\0', length)) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
        "the headers hold a NUL byte");
    return NULL;
  }

  headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_REQUEST);
  copy = g_strndup (text, length);
  lines = g_strsplit (copy, "\n", -1);
  for (i = 0; lines[i]; i++) {
    gchar *line = lines[i], *colon;
    gsize len = strlen (line);

    if (len > 0 && line[len - 1] == '\r')
      line[--len] = '\0';
    if (len == 0)
      continue;
    colon = strchr (line, ':');
    /* a request or status line first: "POST /hook HTTP/1.1" */
    if (n == 0 && (colon == NULL || strchr (line, ' ') < colon) &&
        strstr (line, "HTTP/")) {
      n++;
      continue;
    }
    if (colon == NULL || colon == line) {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
          "line %u of the headers is not \"Name: value\"", i + 1);
      g_clear_pointer (&headers, soup_message_headers_unref);
      break;
    }
    *colon = '\0';
    soup_message_headers_append (headers, g_strstrip (line),
        g_strstrip (colon + 1));
    n++;
  }
  g_strfreev (lines);
  g_free (copy);
  return headers;
}

/* ---------------------------------------------------------------------- */
/* durable files                                                          */

gboolean
cli_fsync_dir (const gchar * dir, GError ** error)
{
  gint fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  if (fd < 0 || fsync (fd) != 0) {
    gint e = errno;

    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e),
        "cannot sync the directory %s: %s", dir, g_strerror (e));
    if (fd >= 0)
      close (fd);
    return FALSE;
  }
  close (fd);
  return TRUE;
}

gboolean
cli_write_file_durably (const gchar * path, const gchar * data, gsize length,
    GError ** error)
{
  gchar *dir = g_path_get_dirname (path);
  gchar *base = g_path_get_basename (path);
  gchar *tmp = g_strdup_printf ("%s/.%s.XXXXXX", dir, base);
  gboolean ok = FALSE;
  gsize done = 0;
  gint fd, e = 0;

  fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0) {
    e = errno;
    goto out;
  }
  while (done < length) {
    gssize w = write (fd, data + done, length - done);

    if (w < 0 && errno == EINTR)
      continue;
    if (w < 0) {
      e = errno;
      break;
    }
    done += w;
  }
  if (e == 0 && fsync (fd) != 0)
    e = errno;
  if (close (fd) != 0 && e == 0)
    e = errno;
  if (e == 0 && g_rename (tmp, path) != 0)
    e = errno;
  if (e != 0) {
    g_unlink (tmp);
    goto out;
  }
  ok = cli_fsync_dir (dir, error);
out:
  if (!ok && e != 0)
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e),
        "cannot write %s: %s", path, g_strerror (e));
  g_free (tmp);
  g_free (base);
  g_free (dir);
  return ok;
}
