/* Container runtimes' log files, read as the text they carry.  docker's
 * json-file driver (and kubelet with dockershim) writes one JSON object per
 * record, {"log":"TEXT","stream":"stderr","time":"..."} with TEXT
 * JSON-escaped; a line of more than 16 KiB is split over records whose TEXT
 * lacks the final "\n".  The CRI format (kubelet, containerd, CRI-O)
 * writes "TIMESTAMP STREAM TAG TEXT" per record, TAG "P" for a partial
 * record that the next one continues and "F" for the last.  This module
 * detects the format from an input's first lines and decodes one record at
 * a time, resumably, into the caller's buffer; a record that does not
 * parse is passed on as it is, so no text is lost.  (A record longer than
 * the reader's line cap is cut there by the caller.) */
#ifndef OOMDIAG_CONTAINER_LOG_H
#define OOMDIAG_CONTAINER_LOG_H

#include <stddef.h>

enum clog_format { CLOG_NONE = 0, CLOG_DOCKER_JSON, CLOG_CRI };

/* The format of an input whose first bytes are P (N bytes): its first line
 * and most of its first eight must be records of it (only the first
 * line's start is judged when no line ends in P).  AT_END: P is the whole
 * input. */
enum clog_format clog_detect(const char *p, size_t n, int at_end);

/* One record being decoded. */
struct clog_rec {
    size_t pos;  /* next byte of the record to decode */
    int json;    /* the text is a JSON string's body */
    int newline; /* a "\n" follows the text */
    int done;
    int stream; /* 1 stdout, 2 stderr, 0 unknown (a record that does not parse) */
    int last;   /* the last byte written, -1 before the first */
};

/* Starts on the record REC (LEN bytes, without its "\n"). */
void clog_begin(enum clog_format f, const char *rec, size_t len, struct clog_rec *st);
/* Writes the next decoded bytes of REC into OUT (at most ROOM, which must
 * be at least 8); returns how many.  st->done once the record is out. */
size_t clog_emit(struct clog_rec *st, const char *rec, size_t len, char *out, size_t room);

#endif
