# Installs headers, the layer libraries and a CMake package: find_package(dash CONFIG) gives
# dash::dash (and each layer target dash::comm ... dash::algorithms).
include(CMakePackageConfigHelpers)

get_property(_dash_layers GLOBAL PROPERTY DASH_LAYER_TARGETS)
install(TARGETS ${_dash_layers} dash_dash
  EXPORT dashTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h")

set(DASH_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/dash)
install(EXPORT dashTargets NAMESPACE dash:: DESTINATION ${DASH_CMAKE_INSTALL_DIR})
configure_package_config_file(cmake/dashConfig.cmake.in
  ${PROJECT_BINARY_DIR}/dashConfig.cmake
  INSTALL_DESTINATION ${DASH_CMAKE_INSTALL_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/dashConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/dashConfig.cmake ${PROJECT_BINARY_DIR}/dashConfigVersion.cmake
  DESTINATION ${DASH_CMAKE_INSTALL_DIR})
