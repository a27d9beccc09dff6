/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Director session messages of spec 000, as data. Each entry is one table of
 * the spec ("Director session: messages sent by the client/service"); the
 * validator in schema.c enforces them.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "schema-private.h"
#include "profile.h"

/* *INDENT-OFF* */
static const SchemaNode version_rule = {
  .types = SCHEMA_INTEGER, .flags = SCHEMA_HAS_MIN, .min = 1,
};

static const SchemaNode prompt_rule = {
  .types = SCHEMA_STRING,
  .min_length = 1, .max_length = GST_SESSION_DIRECTOR_PROMPT_MAX,
};

static const SchemaNode protocol_version_rule = {
  .types = SCHEMA_INTEGER, .flags = SCHEMA_HAS_MIN | SCHEMA_HAS_MAX,
  .min = GST_SESSION_DIRECTOR_PROTOCOL_VERSION,
  .max = GST_SESSION_DIRECTOR_PROTOCOL_VERSION,
};

#define MEMORY_RANGE \
  .flags = SCHEMA_HAS_MIN | SCHEMA_HAS_MAX, \
  .min = GST_SESSION_DIRECTOR_MEMORY_MIN, .max = GST_SESSION_DIRECTOR_MEMORY_MAX
#define CHUNK_RANGE \
  .flags = SCHEMA_HAS_MIN | SCHEMA_HAS_MAX, \
  .min = GST_SESSION_DIRECTOR_CHUNK_MIN, .max = GST_SESSION_DIRECTOR_CHUNK_MAX
#define RESOLUTIONS SCHEMA_VALUES ("480p", "768p")
#define ASPECT_RATIOS SCHEMA_VALUES ("16:9", "9:16", "1:1")
#define ACCELERATIONS SCHEMA_VALUES ("none", "regular")
#define ROUTES SCHEMA_VALUES ("gorgonea", "betelgeuse", "regulus", "unknown")
#define ERROR_CODES SCHEMA_VALUES ("content_policy", "configuration_timeout", \
    "generation_failed", "generation_timeout", "immutable_settings", \
    "initialization_timeout", "invalid_initial_image", "invalid_message", \
    "not_configured", "stale_prompt_version")

static const SchemaNode number = { .types = SCHEMA_NUMBER };
static const SchemaNode integer = { .types = SCHEMA_INTEGER };
static const SchemaNode string = { .types = SCHEMA_STRING };
static const SchemaNode boolean = { .types = SCHEMA_BOOLEAN };
static const SchemaNode string_list = { .types = SCHEMA_ARRAY, .items = &string };
static const SchemaNode non_negative = {
  .types = SCHEMA_NUMBER, .flags = SCHEMA_HAS_MIN, .min = 0,
};
static const SchemaNode non_negative_or_null = {
  .types = SCHEMA_NUMBER | SCHEMA_NULL, .flags = SCHEMA_HAS_MIN, .min = 0,
};
static const SchemaNode count = {
  .types = SCHEMA_INTEGER, .flags = SCHEMA_HAS_MIN, .min = 0,
};
static const SchemaNode route = { .types = SCHEMA_STRING, .values = ROUTES };
static const SchemaNode units = {
  .types = SCHEMA_STRING, .values = SCHEMA_VALUES ("ms"),
};
static const SchemaNode number_map = {
  .types = SCHEMA_OBJECT,
  .object = SCHEMA_OBJ (.props = SCHEMA_PROPS ({ NULL }),
      .extra = SCHEMA_EXTRA_MAP, .extra_node = &number),
};

static const SchemaObject version_only = {
  .props = SCHEMA_PROPS ({ "prompt_version", TRUE, &version_rule }),
};

const SchemaMessage schema_director_client[] = {
  { "configure", SCHEMA_OBJ (.extra = SCHEMA_EXTRA_FORBIDDEN,
      .props = SCHEMA_PROPS (
      { "prompt_version", TRUE, &version_rule },
      { "prompt", TRUE, &prompt_rule },
      { "protocol_version", FALSE, &protocol_version_rule, "1" },
      { "memory", FALSE, SCHEMA_NODE (.types = SCHEMA_INTEGER, MEMORY_RANGE),
          "12" },
      { "seed", FALSE, SCHEMA_NODE (.types = SCHEMA_INTEGER | SCHEMA_NULL) },
      { "resolution", FALSE, SCHEMA_NODE (.types = SCHEMA_STRING,
          .values = RESOLUTIONS), "\"768p\"" },
      { "aspect_ratio", FALSE, SCHEMA_NODE (.types = SCHEMA_STRING,
          .values = ASPECT_RATIOS), "\"16:9\"" },
      /* not in the configure schema of spec 000, but in its sample payloads
       * and in configured: accepted, never defaulted (docs/protocol.md) */
      { "chunk_duration", FALSE, SCHEMA_NODE (.types = SCHEMA_INTEGER,
          CHUNK_RANGE) },
      { "acceleration", FALSE, SCHEMA_NODE (.types = SCHEMA_STRING,
          .values = ACCELERATIONS) },
      { "enable_safety_checker", FALSE, &boolean })) },
  { "prompt", SCHEMA_OBJ (.extra = SCHEMA_EXTRA_FORBIDDEN,
      .props = SCHEMA_PROPS (
      { "prompt_version", TRUE, &version_rule },
      { "prompt", TRUE, &prompt_rule })) },
  { "ping", SCHEMA_OBJ (.extra = SCHEMA_EXTRA_FORBIDDEN,
      .props = SCHEMA_PROPS ({ "ts", TRUE, &number })) },
  { "stop", SCHEMA_OBJ (.extra = SCHEMA_EXTRA_FORBIDDEN,
      .props = SCHEMA_PROPS ({ NULL })) },
  { NULL }
};

const SchemaMessage schema_director_service[] = {
  { "configured", SCHEMA_OBJ (.props = SCHEMA_PROPS (
      { "prompt_version", TRUE, &version_rule },
      { "enable_safety_checker", TRUE, &boolean },
      { "memory", FALSE, SCHEMA_NODE (.types = SCHEMA_INTEGER | SCHEMA_NULL,
          MEMORY_RANGE) },
      { "chunk_duration", FALSE, SCHEMA_NODE (
          .types = SCHEMA_INTEGER | SCHEMA_NULL, CHUNK_RANGE) },
      { "acceleration", FALSE, SCHEMA_NODE (
          .types = SCHEMA_STRING | SCHEMA_NULL, .values = ACCELERATIONS) },
      { "has_initial_image", FALSE, SCHEMA_NODE (
          .types = SCHEMA_BOOLEAN | SCHEMA_NULL) },
      { "resolution", FALSE, SCHEMA_NODE (.types = SCHEMA_STRING | SCHEMA_NULL,
          .values = SCHEMA_VALUES ("480p", "544p", "640p", "704p", "768p")) },
      { "aspect_ratio", FALSE, SCHEMA_NODE (
          .types = SCHEMA_STRING | SCHEMA_NULL, .values = ASPECT_RATIOS) })) },
  { "chunk", SCHEMA_OBJ (.props = SCHEMA_PROPS (
      { "chunk_index", TRUE, &count },
      { "prompt_version", TRUE, &version_rule },
      { "generation_seconds", TRUE, &non_negative },
      { "playback_seconds", TRUE, SCHEMA_NODE (.types = SCHEMA_NUMBER,
          .flags = SCHEMA_HAS_MIN | SCHEMA_EXCLUSIVE_MIN, .min = 0) },
      { "requested_duration_seconds", TRUE, SCHEMA_NODE (
          .types = SCHEMA_INTEGER, CHUNK_RANGE) },
      { "generated_frame_count", TRUE, SCHEMA_NODE (.types = SCHEMA_INTEGER,
          .flags = SCHEMA_HAS_MIN | SCHEMA_EXCLUSIVE_MIN, .min = 0) },
      { "trimmed_context_frames", TRUE, &count },
      { "next_generation_estimate_seconds", TRUE, &non_negative },
      { "route", TRUE, &route },
      { "buffer_depth_seconds", TRUE, &non_negative },
      { "buffer_depth_chunks", TRUE, &count },
      { "scheduling_lead_ms", TRUE, &number },
      { "scheduling_slack_ms", TRUE, &number },
      { "dispatch", TRUE, SCHEMA_NODE (.types = SCHEMA_OBJECT,
          .object = SCHEMA_OBJ (.props = SCHEMA_PROPS (
              { "wall_ms", TRUE, &non_negative },
              { "classified_ms", TRUE, &non_negative },
              { "overhead_ms", TRUE, &non_negative },
              { "phases_ms", TRUE, &number_map }))) })) },
  { "chunk_metrics", SCHEMA_OBJ (.props = SCHEMA_PROPS (
      { "chunk_index", TRUE, &count },
      { "units", TRUE, &units },
      { "route", TRUE, &route },
      { "phases_ms", TRUE, &number_map },
      { "gauges", TRUE, &number_map },
      { "chunk_consumable_ready_ms", FALSE, &non_negative_or_null },
      { "chunk_consumable_interval_ms", FALSE, &non_negative_or_null })) },
  { "session_metrics", SCHEMA_OBJ (.props = SCHEMA_PROPS (
      { "units", TRUE, &units },
      { "session_wall_ms", TRUE, &non_negative },
      { "history_size", TRUE, &count },
      { "history_limit", TRUE, SCHEMA_NODE (.types = SCHEMA_INTEGER,
          .flags = SCHEMA_HAS_MIN, .min = 1) },
      { "phases", TRUE, SCHEMA_NODE (.types = SCHEMA_OBJECT,
          .object = SCHEMA_OBJ (.props = SCHEMA_PROPS ({ NULL }),
              .extra = SCHEMA_EXTRA_MAP,
              .extra_node = SCHEMA_NODE (.types = SCHEMA_OBJECT,
                  .object = SCHEMA_OBJ (.props = SCHEMA_PROPS (
                      { "count", TRUE, &count },
                      { "total_ms", TRUE, &non_negative },
                      { "p50_ms", TRUE, &non_negative },
                      { "p95_ms", TRUE, &non_negative },
                      { "max_ms", TRUE, &non_negative }))))) },
      { "gauges", TRUE, &number_map },
      { "final", FALSE, &boolean, "false" })) },
  { "deadline_missed", SCHEMA_OBJ (.props = SCHEMA_PROPS (
      { "chunk_index", TRUE, &count },
      { "late_by_seconds", TRUE, &non_negative },
      { "behavior", TRUE, SCHEMA_NODE (.types = SCHEMA_STRING,
          .values = SCHEMA_VALUES (GST_SESSION_DIRECTOR_FREEZE_BEHAVIOR)) })) },
  { "prompt_pending", &version_only },
  { "prompt_applied", &version_only },
  { "prompt_rejected", SCHEMA_OBJ (.props = SCHEMA_PROPS (
      { "prompt_version", TRUE, &version_rule },
      { "reason", TRUE, SCHEMA_NODE (.types = SCHEMA_STRING,
          .values = SCHEMA_VALUES ("content_policy")) })) },
  { "stream_exhausted", SCHEMA_OBJ (.props = SCHEMA_PROPS (
      { "chunks", TRUE, &count },
      { "reason", TRUE, SCHEMA_NODE (.types = SCHEMA_STRING,
          .values = SCHEMA_VALUES ("stopped", "session_limit")) })) },
  { "pong", SCHEMA_OBJ (.props = SCHEMA_PROPS (
      { "client_ts", TRUE, &number })) },
  { "error", SCHEMA_OBJ (.props = SCHEMA_PROPS (
      { "code", TRUE, SCHEMA_NODE (.types = SCHEMA_STRING,
          .values = ERROR_CODES) },
      { "error", TRUE, &string },
      { "detail", FALSE, SCHEMA_NODE (.types = SCHEMA_ARRAY | SCHEMA_NULL,
          .items = SCHEMA_NODE (.types = SCHEMA_OBJECT)) },
      { "prompt_version", FALSE, SCHEMA_NODE (
          .types = SCHEMA_INTEGER | SCHEMA_NULL,
          .flags = SCHEMA_HAS_MIN, .min = 1) })) },
  /* every field but type has a default: the spec's table, as defaults */
  { "session_info", SCHEMA_OBJ (.props = SCHEMA_PROPS (
      { "protocol_version", FALSE, &protocol_version_rule, "1" },
      { "prompt_deck_size", FALSE, &integer, "3" },
      { "chunk_seconds", FALSE, &integer, "10" },
      { "min_chunk_duration", FALSE, &integer, "5" },
      { "max_chunk_duration", FALSE, &integer, "15" },
      { "default_chunk_duration", FALSE, &integer, "10" },
      { "continuation_playback_seconds", FALSE, &number, "8.5" },
      { "continuation_context_frames", FALSE, &integer, "39" },
      { "resolutions", FALSE, &string_list, "[\"480p\",\"768p\"]" },
      { "aspect_ratios", FALSE, &string_list, "[\"16:9\",\"9:16\",\"1:1\"]" },
      { "accelerations", FALSE, &string_list, "[\"none\",\"regular\"]" },
      { "default_acceleration", FALSE, &string, "\"regular\"" },
      { "min_memory", FALSE, &integer, "1" },
      { "default_memory", FALSE, &integer, "12" },
      { "max_memory", FALSE, &integer, "50" },
      { "prompt_context_segments", FALSE, &integer, "12" },
      { "prompt_expander", FALSE, &string, "\"fast\"" },
      { "controller_machine_type", FALSE, &string, "\"XL\"" },
      { "one_session_per_machine", FALSE, &boolean, "true" },
      { "audio_sample_rate", FALSE, &integer, "32000" },
      { "fps", FALSE, &integer, "24" },
      { "max_session_seconds", FALSE, SCHEMA_NODE (
          .types = SCHEMA_NUMBER | SCHEMA_NULL) },
      { "client_message_types", FALSE, &string_list,
          "[\"configure\",\"ping\",\"prompt\",\"stop\"]" },
      { "server_message_types", FALSE, &string_list,
          "[\"chunk\",\"chunk_metrics\",\"configured\",\"deadline_missed\","
          "\"error\",\"pong\",\"prompt_applied\",\"prompt_pending\","
          "\"prompt_rejected\",\"session_info\",\"session_metrics\","
          "\"stream_exhausted\"]" },
      { "app", FALSE, &string },
      { "backend_selection", FALSE, &string })) },
  { NULL }
};
/* *INDENT-ON* */
