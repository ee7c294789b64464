/* Hostile bot: a fork bomb at its first move. Every process forks as fast as it can; the first
 * one counts the bot's processes once forks are refused, reports on stderr and keeps the move
 * (a timeout). */
#include <dirent.h>
#include <time.h>
#include <unistd.h>

#include "play.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Processes with my uid in my pid namespace, but pid 1 (the sandbox's init, not mine). */
static int my_processes(void) {
    char path[300], line[256], uid[32];
    int count = 0;
    snprintf(uid, sizeof uid, "%u", (unsigned)getuid());
    DIR *proc = opendir("/proc");
    for (struct dirent *entry; proc && (entry = readdir(proc));) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9' || strcmp(entry->d_name, "1") == 0) continue;
        snprintf(path, sizeof path, "/proc/%s/status", entry->d_name);
        FILE *status = fopen(path, "r");
        while (status && fgets(line, sizeof line, status)) {
            char field[32], real[32];
            if (sscanf(line, "%31s %31s", field, real) == 2 && strcmp(field, "Uid:") == 0) {
                count += strcmp(real, uid) == 0;
                break;
            }
        }
        if (status) fclose(status);
    }
    if (proc) closedir(proc);
    return count;
}

static int bomb(void) {
    int refused = 0, child = 0;
    double deadline = now() + 1.0;
    while (child || now() < deadline) {
        pid_t pid = fork();
        if (pid == 0) {
            child = 1; /* children never stop */
        } else if (pid < 0) {
            refused++;
            usleep(10000);
        }
    }
    fprintf(stderr, "FORKBOMB refused=%d processes=%d\n", refused, my_processes());
    sleep(3600);
    return 0;
}

int main(void) {
    play(bomb);
    return 0;
}
