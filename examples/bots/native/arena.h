/* arena.h: the bot protocol (docs/protocol.md) for C and C++ bots, without a JSON library.
 *
 * A message is one line of JSON. arena_field() finds a field of its top-level object and gives
 * its JSON text; arena_count() and arena_item() walk a JSON array. A legal action is answered as
 * the very JSON text the arena sent, so a bot that picks from `legal_actions` never needs to
 * understand an action to play it. Parse `view` with a JSON library of your choice if your bot
 * reads it (link it statically too).
 */
#ifndef ARENA_H
#define ARENA_H

#include <stdio.h>
#include <string.h>

static const char *arena_ws(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return p;
}

/* Past the end of the string starting at the quote p; NULL if it never ends. */
static const char *arena_skip_string(const char *p) {
    for (p++; *p && *p != '"'; p++)
        if (*p == '\\' && p[1]) p++;
    return *p ? p + 1 : NULL;
}

/* Past the end of the JSON value at p (after any whitespace); NULL if it is malformed. */
static const char *arena_skip(const char *p) {
    p = arena_ws(p);
    if (*p == '"') return arena_skip_string(p);
    if (*p == '{' || *p == '[') {
        int depth = 0;
        for (; *p; p++) {
            if (*p == '"') {
                p = arena_skip_string(p);
                if (!p) return NULL;
                p--;
            } else if (*p == '{' || *p == '[') {
                depth++;
            } else if ((*p == '}' || *p == ']') && --depth == 0) {
                return p + 1;
            }
        }
        return NULL;
    }
    while (*p && !strchr(",}] \t\r\n", *p)) p++; /* a number, true, false or null */
    return p;
}

/* The JSON text of the field `key` of the object `json` (its top level only), its length in
 * *len; NULL if there is no such field. */
static const char *arena_field(const char *json, const char *key, size_t *len) {
    size_t key_len = strlen(key);
    const char *p = arena_ws(json);
    if (*p++ != '{') return NULL;
    for (;;) {
        p = arena_ws(p);
        if (*p != '"') return NULL;
        const char *name = p + 1, *name_end = arena_skip_string(p);
        if (!name_end) return NULL;
        p = arena_ws(name_end);
        if (*p++ != ':') return NULL;
        const char *value = arena_ws(p), *value_end = arena_skip(value);
        if (!value_end) return NULL;
        if ((size_t)(name_end - 1 - name) == key_len && memcmp(name, key, key_len) == 0) {
            *len = (size_t)(value_end - value);
            return value;
        }
        p = arena_ws(value_end);
        if (*p++ != ',') return NULL;
    }
}

/* Is the JSON text (text, len) the string `word`? */
static int arena_is(const char *text, size_t len, const char *word) {
    size_t n = strlen(word);
    return text && len == n + 2 && text[0] == '"' && memcmp(text + 1, word, n) == 0;
}

/* The JSON text of item `index` of the array `array` (length in *len); NULL past its end. */
static const char *arena_item(const char *array, size_t index, size_t *len) {
    const char *p = arena_ws(array);
    if (*p++ != '[') return NULL;
    p = arena_ws(p);
    if (*p == ']') return NULL;
    for (size_t i = 0;; i++) {
        const char *item = arena_ws(p), *end = arena_skip(item);
        if (!end) return NULL;
        if (i == index) {
            *len = (size_t)(end - item);
            return item;
        }
        p = arena_ws(end);
        if (*p++ != ',') return NULL;
    }
}

/* The number of items of the array `array` (0 if it is malformed). */
static size_t arena_count(const char *array) {
    const char *p = arena_ws(array);
    if (*p++ != '[') return 0;
    p = arena_ws(p);
    if (*p == ']') return 0;
    for (size_t n = 1;; n++) {
        p = arena_skip(p);
        if (!p) return 0;
        p = arena_ws(p);
        if (*p == ']') return n;
        if (*p++ != ',') return 0;
    }
}

/* Answer an act: {"action": <the JSON text>} on one line, flushed. */
static void arena_answer(const char *action, size_t len) {
    printf("{\"action\": %.*s}\n", (int)len, action);
    fflush(stdout);
}

#endif
