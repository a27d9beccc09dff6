/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * World session messages of spec 000, as data. Each entry below is one table
 * of the spec ("World session: messages sent by the client/service"); the
 * validator in schema.c enforces them.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "schema-private.h"
#include "profile.h"

/* *INDENT-OFF* */
#define WORLD_COMMAND_VALUES \
  SCHEMA_VALUES ("forward", "left", "backward", "right", \
      "look_up", "look_left", "look_down", "look_right")

#define WORLD_CONFLICT_GROUPS \
  ((const gchar * const * const []) { \
    SCHEMA_VALUES ("forward", "backward"), \
    SCHEMA_VALUES ("left", "right"), \
    SCHEMA_VALUES ("look_up", "look_down"), \
    SCHEMA_VALUES ("look_left", "look_right"), \
    NULL })

static const SchemaNode preset_rule = {
  .types = SCHEMA_STRING | SCHEMA_NULL,
  .max_length = GST_SESSION_WORLD_PRESET_MAX,
};

static const SchemaNode image_url_rule = {
  .types = SCHEMA_STRING | SCHEMA_NULL,
  .max_length = GST_SESSION_WORLD_IMAGE_URL_MAX,
};

static const SchemaNode optional_prompt_rule = {
  .types = SCHEMA_STRING | SCHEMA_NULL,
  .max_length = GST_SESSION_WORLD_PROMPT_MAX,
};

static const SchemaNode command_list_rule = {
  .types = SCHEMA_ARRAY,
  .max_items = GST_SESSION_WORLD_COMMANDS_MAX_ITEMS,
  .items = SCHEMA_NODE (.types = SCHEMA_STRING,
      .values = WORLD_COMMAND_VALUES),
  .exclusive_groups = WORLD_CONFLICT_GROUPS,
};

static const SchemaNode key_list_rule = {
  .types = SCHEMA_ARRAY,
  .max_items = GST_SESSION_WORLD_KEYS_MAX_ITEMS,
  .items = SCHEMA_NODE (.types = SCHEMA_STRING),
};

static const SchemaNode nullable_number = { .types = SCHEMA_NUMBER | SCHEMA_NULL };
static const SchemaNode number = { .types = SCHEMA_NUMBER };
static const SchemaNode integer = { .types = SCHEMA_INTEGER };
static const SchemaNode string = { .types = SCHEMA_STRING };
static const SchemaNode boolean = { .types = SCHEMA_BOOLEAN };
static const SchemaNode string_list = {
  .types = SCHEMA_ARRAY, .items = &string,
};

static const SchemaObject type_only = { .props = SCHEMA_PROPS ({ NULL }) };

const SchemaMessage schema_world_client[] = {
  { "configure", SCHEMA_OBJ (.props = SCHEMA_PROPS (
      { "preset", FALSE, &preset_rule },
      { "image_url", FALSE, &image_url_rule },
      { "prompt", FALSE, &optional_prompt_rule })) },
  { "prompt", SCHEMA_OBJ (.props = SCHEMA_PROPS (
      { "prompt", TRUE, SCHEMA_NODE (.types = SCHEMA_STRING,
          .min_length = 1, .max_length = GST_SESSION_WORLD_PROMPT_MAX) })) },
  { "reset", SCHEMA_OBJ (.props = SCHEMA_PROPS (
      { "preset", FALSE, &preset_rule },
      { "image_url", FALSE, &image_url_rule },
      { "prompt", FALSE, &optional_prompt_rule })) },
  { "stop", SCHEMA_OBJ (.props = SCHEMA_PROPS ({ NULL }),
      .extra = SCHEMA_EXTRA_FORBIDDEN) },
  { "commands", SCHEMA_OBJ (.props = SCHEMA_PROPS (
      { "active", FALSE, &command_list_rule },
      { "activated", FALSE, &command_list_rule })) },
  { "keys", SCHEMA_OBJ (.props = SCHEMA_PROPS (
      { "pressed", FALSE, &key_list_rule },
      { "activated", FALSE, &key_list_rule })) },
  { "ping", SCHEMA_OBJ (.props = SCHEMA_PROPS (
      { "ts", FALSE, &nullable_number })) },
  { NULL }
};

const SchemaMessage schema_world_service[] = {
  { "configured", &type_only },
  { "prompt_applied", &type_only },
  { "reset_applied", &type_only },
  { "stream_exhausted", &type_only },
  { "error", SCHEMA_OBJ (.props = SCHEMA_PROPS (
      { "error", TRUE, &string },
      { "retryable", FALSE, SCHEMA_NODE (
          .types = SCHEMA_BOOLEAN | SCHEMA_NULL) })) },
  { "pong", SCHEMA_OBJ (.props = SCHEMA_PROPS (
      { "server_ts", FALSE, &nullable_number },
      { "client_ts", FALSE, &nullable_number },
      { "ts", FALSE, &nullable_number })) },
  { "session_info", SCHEMA_OBJ (.props = SCHEMA_PROPS (
      { "model_id", TRUE, &string },
      { "model_revision", TRUE, &string },
      { "resolution", TRUE, SCHEMA_NODE (.types = SCHEMA_OBJECT,
          .object = SCHEMA_OBJ (.props = SCHEMA_PROPS (
              { "width", TRUE, &integer },
              { "height", TRUE, &integer }))) },
      { "frames_per_second", TRUE, &number },
      { "frames_per_block", TRUE, &integer },
      { "max_blocks", TRUE, &integer },
      { "key_order", TRUE, &string_list },
      { "conflict_groups", TRUE, SCHEMA_NODE (.types = SCHEMA_ARRAY,
          .items = &string_list) },
      { "default_prompt", TRUE, &string },
      { "presets", TRUE, SCHEMA_NODE (.types = SCHEMA_ARRAY,
          .items = SCHEMA_NODE (.types = SCHEMA_OBJECT,
              .object = SCHEMA_OBJ (.props = SCHEMA_PROPS (
                  { "name", TRUE, &string },
                  { "prompt", TRUE, &string })))) },
      { "turn", TRUE, &boolean },
      { "turn_status", TRUE, &string })) },
  { "stats", SCHEMA_OBJ (.props = SCHEMA_PROPS (
      { "block_index", TRUE, &integer },
      { "block_seconds", TRUE, &number },
      { "generation_fps", TRUE, &number },
      { "gpu_wait_frac", TRUE, &number },
      { "queue_age_ms_p50", TRUE, &number },
      { "queue_age_ms_max", TRUE, &number },
      { "pace_sleep_ms_avg", TRUE, &number },
      { "queue_depth", TRUE, &integer })) },
  { NULL }
};
/* *INDENT-ON* */
