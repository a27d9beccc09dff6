/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gst-session: the command-line tool (webhooks, queue, management).
 *
 * main() takes the global options out of argv (anywhere before a "--"),
 * scrubs the API key from the process's argument memory, and hands the
 * rest to a command.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define USAGE \
  "Usage:\n" \
  "  gst-session [GLOBAL OPTIONS] COMMAND [ARGS...]\n" \
  "\n" \
  "Webhooks:\n" \
  "  webhook listen --port P --jwks-url URL --db FILE " \
  "(--exec CMD | --jsonl FILE | --dir DIR)\n" \
  "                 [--host ADDR] [--api-url URL] [--max-body BYTES] " \
  "[--keep-ids SECONDS]\n" \
  "      receive, verify, durably store and process webhook deliveries\n" \
  "  webhook verify --headers FILE --body FILE (--jwks FILE | " \
  "--jwks-url URL) [--now UNIX] [--leeway S]\n" \
  "      check one captured delivery offline (exit 0 valid, 1 invalid)\n" \
  "\n" \
  "Queue:\n" \
  "  submit --queue-url URL APP_PATH --webhook URL " \
  "[--data JSON | --data-file FILE]\n" \
  "      queue a request; prints request_id and gateway_request_id\n" \
  "\n" \
  "Management (--api-url URL):\n" \
  "  apps list | apps runners APP\n" \
  "  runners list | runners get ID | runners logs ID\n" \
  "  runners exec ID -- CMD... | runners shell ID -- CMD...\n" \
  "  runners stop ID | runners kill ID\n" \
  "\n" \
  "Global options (before or after the command words):\n" \
  "  --json          machine-readable output on stdout\n" \
  "  --timeout MS    longest wait for the service (0 waits forever)\n" \
  "  --api-key KEY   the API key; better: the environment variable " \
  CLI_API_KEY_ENV "\n" \
  "                  (the key is never printed or logged)\n" \
  "\n" \
  "Each command takes --help.\n" \
  "\n" CLI_EXIT_CODES_HELP

/* Overwrites an argument in the process's memory (ps, /proc/PID/cmdline). */
static void
scrub (gchar * arg)
{
  memset (arg, 'x', strlen (arg));
}

/* Takes --json, --timeout and --api-key out of @args (up to a "--"). */
static gboolean
take_globals (CliGlobal * global, GPtrArray * args, gchar ** argv)
{
  guint i = 1;

  while (i < args->len) {
    gchar *arg = g_ptr_array_index (args, i);
    const gchar *value = NULL;
    gboolean key, timeout;
    guint used = 1;

    if (g_str_equal (arg, "--"))
      break;
    if (g_str_equal (arg, "--json")) {
      global->json = TRUE;
      g_ptr_array_remove_index (args, i);
      continue;
    }
    key = g_str_equal (arg, "--api-key") ||
        g_str_has_prefix (arg, "--api-key=");
    timeout = g_str_equal (arg, "--timeout") ||
        g_str_has_prefix (arg, "--timeout=");
    if (!key && !timeout) {
      i++;
      continue;
    }
    if (strchr (arg, '=')) {
      value = strchr (arg, '=') + 1;
    } else if (i + 1 < args->len) {
      value = g_ptr_array_index (args, i + 1);
      used = 2;
    } else {
      cli_fail (global, CLI_EXIT_USAGE, "%s needs a value", arg);
      return FALSE;
    }
    if (key) {
      g_free (global->api_key);
      global->api_key = g_strdup (value);
      /* the strings of args are argv's own */
      scrub ((gchar *) value);
    } else {
      gchar *end = NULL;
      gint64 ms = g_ascii_strtoll (value, &end, 10);

      if (*value == '\0' || *end != '\0' || ms < 0 || ms > G_MAXINT) {
        cli_fail (global, CLI_EXIT_USAGE, "--timeout needs a number of "
            "milliseconds from 0 to %d, not \"%s\"", G_MAXINT, value);
        return FALSE;
      }
      global->timeout_ms = ms;
    }
    g_ptr_array_remove_range (args, i, used);
  }
  return TRUE;
}

static gint
dispatch (CliGlobal * global, gint argc, gchar ** argv)
{
  const gchar *cmd = argv[1];

  if (g_str_equal (cmd, "--help") || g_str_equal (cmd, "-h") ||
      g_str_equal (cmd, "help")) {
    g_print ("%s", USAGE);
    return CLI_EXIT_OK;
  }
  if (g_str_equal (cmd, "--version")) {
    g_print ("gst-session %s\n", VERSION);
    return CLI_EXIT_OK;
  }
  if (g_str_equal (cmd, "webhook") && argc >= 3) {
    if (g_str_equal (argv[2], "listen"))
      return cli_webhook_listen (global, argc - 2, argv + 2);
    if (g_str_equal (argv[2], "verify"))
      return cli_webhook_verify (global, argc - 2, argv + 2);
  }
  if (g_str_equal (cmd, "webhook"))
    return cli_fail (global, CLI_EXIT_USAGE,
        "webhook needs a subcommand: listen or verify (see --help)");
  if (g_str_equal (cmd, "submit"))
    return cli_submit (global, argc - 1, argv + 1);
  if (g_str_equal (cmd, "apps"))
    return cli_apps (global, argc - 1, argv + 1);
  if (g_str_equal (cmd, "runners"))
    return cli_runners (global, argc - 1, argv + 1);
  return cli_fail (global, CLI_EXIT_USAGE, "unknown command \"%s\" (see "
      "gst-session --help)", cmd);
}

int
main (int argc, char **argv)
{
  CliGlobal global = { FALSE, -1, NULL };
  GPtrArray *args = g_ptr_array_new ();
  const gchar *env_key;
  GError *error = NULL;
  gint i, ret;

  setlocale (LC_ALL, "");
  for (i = 0; i < argc; i++)
    g_ptr_array_add (args, argv[i]);

  if (!take_globals (&global, args, argv))
  {
    ret = CLI_EXIT_USAGE;
    goto out;
  }
  env_key = g_getenv (CLI_API_KEY_ENV);
  if (global.api_key == NULL && env_key && *env_key)
    global.api_key = g_strdup (env_key);

  if (args->len < 2) {
    g_printerr ("%s", USAGE);
    ret = CLI_EXIT_USAGE;
    goto out;
  }
  g_ptr_array_add (args, NULL);
  /* the library's GstStructures (ctx of error items) need GStreamer's
   * type system; GStreamer's own options are not taken */
  if (!gst_init_check (NULL, NULL, &error)) {
    ret = cli_fail (&global, CLI_EXIT_INTERNAL, "cannot initialise "
        "GStreamer: %s", error ? error->message : "?");
    g_clear_error (&error);
    goto out;
  }
  gst_session_init ();
  ret = dispatch (&global, args->len - 1, (gchar **) args->pdata);

out:
  if (global.api_key) {
    memset (global.api_key, 0, strlen (global.api_key));
    g_free (global.api_key);
  }
  g_ptr_array_unref (args);
  return ret;
}
