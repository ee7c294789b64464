/* Hostile bot: tries the network (Redis on the host's loopback, a public address, a DNS query
 * over UDP), reports each attempt on stderr, then plays legal moves. Inside the sandbox every
 * attempt fails. */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "play.h"

static void attempt(const char *name, const char *host, int port, int type) {
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((unsigned short)port)};
    struct timeval second = {.tv_sec = 1};
    inet_pton(AF_INET, host, &address.sin_addr);
    int fd = socket(AF_INET, type, 0), ok = fd >= 0;
    if (ok) {
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &second, sizeof second);
        ok = connect(fd, (struct sockaddr *)&address, sizeof address) == 0;
        if (ok && type == SOCK_DGRAM) /* a DNS query for example.com */
            ok = send(fd, "\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x07" "example\x03" "com\x00\x00\x01\x00\x01", 29, 0) == 29;
    }
    if (ok)
        fprintf(stderr, "NETWORK %s: CONNECTED\n", name);
    else
        fprintf(stderr, "NETWORK %s: failed (%s)\n", name, strerror(errno));
    if (fd >= 0) close(fd);
}

int main(void) {
    attempt("redis", "127.0.0.1", 6379, SOCK_STREAM);
    attempt("public", "1.1.1.1", 53, SOCK_STREAM);
    attempt("dns", "1.1.1.1", 53, SOCK_DGRAM);
    play(NULL);
    return 0;
}
