/* Making the folders a file about to be written needs, as `mkdir -p` of
 * its directory part would.  Nothing is kept; errors are errno values. */
#ifndef OOMDIAG_MKPARENT_H
#define OOMDIAG_MKPARENT_H

/* Creates every missing directory above the file PATH (mode 0777 less the
 * umask).  Returns 0 when they all exist afterwards, or an errno value
 * (ENAMETOOLONG for a path longer than PATH_MAX). */
int mkparent(const char *path);

#endif
