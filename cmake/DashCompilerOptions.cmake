# Warning and sanitizer settings for everything this project compiles itself.
# They never leak into the installed package: consumers choose their own flags.
# -Wnull-dereference is left out: GCC 12 reports it at -O2 inside libstdc++ and CLI11 code that is
# correct, which -Werror would turn into build failures. For the same reason -Wrestrict stays a
# warning on GCC 12: at -O3 it flags `"literal" + std::string&&` inside libstdc++ (GCC bug 105329).

add_library(dash_warnings INTERFACE)
target_compile_options(dash_warnings INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion
    -Wsign-conversion -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual
    -Wimplicit-fallthrough>
  $<$<AND:$<CXX_COMPILER_ID:GNU,Clang>,$<BOOL:${DASH_WARNINGS_AS_ERRORS}>>:-Werror>
  $<$<AND:$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-error=restrict>)

if(DASH_SANITIZE)
  string(REPLACE "," ";" _dash_sanitizers "${DASH_SANITIZE}")
  foreach(_s IN LISTS _dash_sanitizers)
    if(NOT _s MATCHES "^(address|undefined|leak|thread)$")
      message(FATAL_ERROR "DASH_SANITIZE: unknown sanitizer '${_s}' "
                          "(allowed: address, undefined, leak, thread)")
    endif()
  endforeach()
  add_compile_options(-fsanitize=${DASH_SANITIZE} -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=${DASH_SANITIZE})
endif()
