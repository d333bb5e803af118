# dash_add_layer(<name> [BELOW <target>] [SOURCES <cpp>...])
#
# Creates the layer target dash_<name> with the alias dash::<name>. A layer with
# compiled sources is a library; a layer that so far holds only header templates
# is an INTERFACE target. Either way it links exactly the layer below it, which
# is how docs/design.md §1 keeps the layering one-directional.
function(dash_add_layer name)
  cmake_parse_arguments(ARG "" "BELOW" "SOURCES" ${ARGN})
  set(target dash_${name})
  if(ARG_SOURCES)
    add_library(${target} ${ARG_SOURCES})
    set(scope PUBLIC)
    target_link_libraries(${target} PRIVATE $<BUILD_INTERFACE:dash_warnings> $<BUILD_INTERFACE:dash_codegen>)
    set_target_properties(${target} PROPERTIES
      OUTPUT_NAME dash_${name}
      VERSION ${PROJECT_VERSION}
      SOVERSION ${PROJECT_VERSION_MAJOR})
  else()
    add_library(${target} INTERFACE)
    set(scope INTERFACE)
  endif()
  add_library(dash::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  target_include_directories(${target} ${scope}
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${target} ${scope} cxx_std_20)
  if(ARG_BELOW)
    target_link_libraries(${target} ${scope} ${ARG_BELOW})
  endif()
  set_property(GLOBAL APPEND PROPERTY DASH_LAYER_TARGETS ${target})
endfunction()
