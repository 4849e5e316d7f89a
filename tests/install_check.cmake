# Installs the build into a scratch prefix and checks the layout that
# CONTRACT.md and the packaging promise, then runs the installed binary
# from another directory (the rules are embedded).
#   cmake -DBUILD=build -DPREFIX=/tmp/p -P install_check.cmake
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX}
                OUTPUT_QUIET RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${err}")
endif()
set(missing "")
foreach(f bin/oomdiag share/man/man1/oomdiag.1 share/bash-completion/completions/oomdiag
          share/zsh/site-functions/_oomdiag
          share/doc/oomdiag/oomdiag.schema.json share/doc/oomdiag/CONTRACT.md)
  if(NOT EXISTS ${PREFIX}/${f})
    list(APPEND missing ${f})
  endif()
endforeach()
file(GLOB rules ${PREFIX}/share/oomdiag/rules/*.json)
if(NOT rules)
  list(APPEND missing "share/oomdiag/rules/*.json")
endif()
if(missing)
  message(FATAL_ERROR "not installed under ${PREFIX}: ${missing}")
endif()
execute_process(COMMAND ${PREFIX}/bin/oomdiag --version WORKING_DIRECTORY ${PREFIX}/share
                OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "^oomdiag ")
  message(FATAL_ERROR "the installed oomdiag --version: exit ${rc}: ${out}")
endif()
list(LENGTH rules n)
message("installed: bin/oomdiag, ${n} rule files, the man page, the schema, the contract and the completions")
