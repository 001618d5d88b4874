/* replay_main.c: runs a fuzz target over every file of the folders (or files)
 * given, so that corpora and kept crashers are replayed by ctest. Any crash,
 * sanitizer report or hang fails the test; prints "N passed, 0 failed". */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static long replayed;

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return -1;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc(n > 0 ? (size_t)n : 1);
    if (!data || (n > 0 && fread(data, 1, (size_t)n, f) != (size_t)n)) {
        fclose(f);
        free(data);
        fprintf(stderr, "cannot read %s\n", path);
        return -1;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(data, (size_t)n);
    free(data);
    replayed++;
    return 0;
}

static int replay(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "no such corpus: %s\n", path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return replay_file(path);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char child[4096];
        snprintf(child, sizeof child, "%s/%s", path, e->d_name);
        if (replay(child))
            rc = -1;
    }
    closedir(d);
    return rc;
}

int main(int argc, char **argv)
{
    int rc = 0;
    for (int i = 1; i < argc; i++)
        if (replay(argv[i]))
            rc = 1;
    if (replayed == 0) {
        fprintf(stderr, "no input replayed\n");
        return 1;
    }
    printf("%ld passed, 0 failed\n", replayed);
    return rc;
}
