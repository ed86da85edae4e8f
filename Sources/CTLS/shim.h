#ifndef APPSHELL_CTLS_SHIM_H
#define APPSHELL_CTLS_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>

/* SSL_set_tlsext_host_name is a macro; Swift cannot call it directly. */
static inline int appshell_tls_set_server_name(SSL *ssl, const char *name) {
  return (int)SSL_set_tlsext_host_name(ssl, name);
}
#endif
