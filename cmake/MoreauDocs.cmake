# API reference: the `docs` target (`make docs`) runs Doxygen on the public headers and docs/*.md
# into <build>/docs/html. With MOREAU_BUILD_TESTS, the ctest docs.doxygen runs Doxygen again with
# every warning logged and fails on the warnings scripts/check-doxygen-warnings accepts as errors
# (see docs/api-stability.md, "Documentation check").
find_package(Doxygen QUIET)
if(NOT DOXYGEN_FOUND)
  add_custom_target(docs COMMAND ${CMAKE_COMMAND} -E echo "docs: doxygen not found (scripts/install-deps installs it)"
                    COMMAND ${CMAKE_COMMAND} -E false)
  return()
endif()
if(NOT Python3_EXECUTABLE)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
endif()

file(MAKE_DIRECTORY "${PROJECT_BINARY_DIR}/docs")
set(MOREAU_DOXYGEN_EXTRACT_ALL YES)        # the reference lists every public entity
set(MOREAU_DOXYGEN_WARN_AS_ERROR NO)
set(MOREAU_DOXYGEN_WARN_LOGFILE "${PROJECT_BINARY_DIR}/docs/doxygen-warnings.log")
configure_file("${PROJECT_SOURCE_DIR}/Doxyfile.in" "${PROJECT_BINARY_DIR}/docs/Doxyfile" @ONLY)
add_custom_target(docs
  COMMAND Doxygen::doxygen "${PROJECT_BINARY_DIR}/docs/Doxyfile"
  COMMAND ${CMAKE_COMMAND} -E echo "docs: ${PROJECT_BINARY_DIR}/docs/html/index.html"
  WORKING_DIRECTORY "${PROJECT_BINARY_DIR}/docs" VERBATIM)

if(MOREAU_BUILD_TESTS)
  # The check: EXTRACT_ALL off, so that undocumented entities are reported, into its own folder.
  set(MOREAU_DOXYGEN_EXTRACT_ALL NO)
  set(MOREAU_DOXYGEN_WARN_LOGFILE "${PROJECT_BINARY_DIR}/docs-check/doxygen-warnings.log")
  file(MAKE_DIRECTORY "${PROJECT_BINARY_DIR}/docs-check")
  configure_file("${PROJECT_SOURCE_DIR}/Doxyfile.in" "${PROJECT_BINARY_DIR}/docs-check/Doxyfile.in.tmp" @ONLY)
  file(READ "${PROJECT_BINARY_DIR}/docs-check/Doxyfile.in.tmp" _doxyfile)
  string(REPLACE "OUTPUT_DIRECTORY       = ${PROJECT_BINARY_DIR}/docs"
                 "OUTPUT_DIRECTORY       = ${PROJECT_BINARY_DIR}/docs-check" _doxyfile "${_doxyfile}")
  file(WRITE "${PROJECT_BINARY_DIR}/docs-check/Doxyfile" "${_doxyfile}")
  add_test(NAME docs.doxygen
           COMMAND ${Python3_EXECUTABLE} "${PROJECT_SOURCE_DIR}/scripts/check-doxygen-warnings"
                   ${DOXYGEN_EXECUTABLE} "${PROJECT_BINARY_DIR}/docs-check/Doxyfile"
                   "${MOREAU_DOXYGEN_WARN_LOGFILE}" "${PROJECT_SOURCE_DIR}/docs/undocumented-api.txt"
           WORKING_DIRECTORY "${PROJECT_BINARY_DIR}/docs-check")
  set_tests_properties(docs.doxygen PROPERTIES LABELS docs TIMEOUT 300)
endif()
