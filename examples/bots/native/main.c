/* Starter bot of the native runtime (docs/protocol.md, "Runtimes"): a statically linked x86_64
 * Linux executable, named by the arena.json beside this file. Build it, from this directory:
 *
 *     gcc -static -O2 -o main main.c
 *
 * It reads one JSON message per line on stdin; each `act` carries the legal actions, and it
 * answers one of them, picked at random, as one line {"action": ...} on stdout (arena.h keeps
 * each action as the JSON text the arena sent). Logs go to stderr.
 *
 *     .venv/bin/python manage.py botcheck examples/bots/native --game wizard-kings
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "arena.h"

int main(void) {
    char *line = NULL;
    size_t capacity = 0, len;
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    while (getline(&line, &capacity, stdin) > 0) {
        const char *type = arena_field(line, "type", &len);
        if (arena_is(type, len, "hello")) {
            size_t game_len = 0, runtime_len = 0, name_len = 0, version_len = 0;
            const char *game = arena_field(line, "game", &game_len);
            const char *runtime = arena_field(line, "runtime", &runtime_len);
            const char *name = runtime ? arena_field(runtime, "name", &name_len) : NULL;
            const char *version = runtime ? arena_field(runtime, "version", &version_len) : NULL;
            /* JSON strings, printed without their quotes (their escapes left as they are) */
            fprintf(stderr, "playing %.*s on %.*s (%.*s)\n", (int)game_len - 2, game ? game + 1 : "",
                    (int)name_len - 2, name ? name + 1 : "", (int)version_len - 2, version ? version + 1 : "");
        } else if (arena_is(type, len, "act")) {
            const char *legal = arena_field(line, "legal_actions", &len);
            size_t count = legal ? arena_count(legal) : 0;
            if (count == 0) {
                fprintf(stderr, "an act without legal actions: %.200s\n", line);
                return 1;
            }
            const char *action = arena_item(legal, (size_t)rand() % count, &len);
            arena_answer(action, len);
        } else if (arena_is(type, len, "result")) {
            fprintf(stderr, "result: %s", line);
            break;
        }
        /* Other message types may come in later versions of the protocol: ignore them. */
    }
    free(line);
    return 0;
}
