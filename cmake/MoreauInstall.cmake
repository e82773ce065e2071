# Issue 18, "a library that people can depend on": the version header, install rules,
# moreauConfig.cmake / moreauConfigVersion.cmake / moreauTargets.cmake (moreau::moreau and
# moreau::<layer>; with modules/FindHDF5.cmake, so that the consumer needs no C compiler),
# moreau.pc, the Debian package (cpack -G DEB), the `docs` target and the packaging tests.
# Included at the end of the top-level CMakeLists.txt, after every target exists.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(MOREAU_LAYERS common linalg problems solvers model contact analysis impact sim io)
set(MOREAU_PYTHON_INSTALL_DIR "lib/python3/dist-packages" CACHE STRING
    "Where `cmake --install` puts the Python package moreau, relative to the prefix")
set(MOREAU_CMAKE_INSTALL_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/moreau")
set(MOREAU_SHARE_INSTALL_DIR "${CMAKE_INSTALL_DATADIR}/moreau")

# --- The one version number: moreau/version.hpp in the build tree's include folder ------------
configure_file("${CMAKE_CURRENT_LIST_DIR}/version.hpp.in"
               "${PROJECT_BINARY_DIR}/include/moreau/version.hpp" @ONLY)
get_target_property(_type moreau_common TYPE)
if(_type STREQUAL "INTERFACE_LIBRARY")
  set(_scope INTERFACE)
else()
  set(_scope PUBLIC)
endif()
# Installed, every target reaches it (it sits next to the other headers). In the build tree only
# moreau::moreau adds the generated folder, so that the layers' compile lines (and their ccache
# entries) stay as they are.
target_include_directories(moreau_common ${_scope} "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
target_include_directories(moreau INTERFACE "$<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>")
target_compile_features(moreau_common ${_scope} cxx_std_20)

# --- Libraries, headers, exported targets -------------------------------------------------------
set(_layer_targets)
set(MOREAU_PC_LIBS)
foreach(layer ${MOREAU_LAYERS})
  set_target_properties(moreau_${layer} PROPERTIES EXPORT_NAME ${layer})
  list(APPEND _layer_targets moreau_${layer})
  get_target_property(_type moreau_${layer} TYPE)
  if(NOT _type STREQUAL "INTERFACE_LIBRARY")
    # Shared builds: a layer finds the layers below it next to itself.
    set_target_properties(moreau_${layer} PROPERTIES INSTALL_RPATH "$ORIGIN")
    list(PREPEND MOREAU_PC_LIBS "-lmoreau_${layer}")  # link order: io first, common last
  endif()
endforeach()
set_target_properties(moreau PROPERTIES EXPORT_NAME moreau)

install(TARGETS ${_layer_targets} moreau EXPORT moreauTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/moreau" DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES "${PROJECT_BINARY_DIR}/include/moreau/version.hpp"
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/moreau)
install(EXPORT moreauTargets NAMESPACE moreau:: DESTINATION ${MOREAU_CMAKE_INSTALL_DIR})

configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/moreauConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/moreauConfig.cmake" INSTALL_DESTINATION ${MOREAU_CMAKE_INSTALL_DIR})
# While the version is 0.x, a minor version may break the API (docs/api-stability.md).
write_basic_package_version_file("${PROJECT_BINARY_DIR}/moreauConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/moreauConfig.cmake" "${PROJECT_BINARY_DIR}/moreauConfigVersion.cmake"
        DESTINATION ${MOREAU_CMAKE_INSTALL_DIR})
# The FindHDF5 that moreauConfig.cmake uses, so that a project without C finds HDF5 (issue 32):
# after HDF5_ROOT and CMAKE_PREFIX_PATH it looks where this build found hdf5.h and libhdf5 (when
# FindHDF5 gave their paths), then in the system folders.
set(MOREAU_HDF5_INCLUDE_HINTS "${HDF5_INCLUDE_DIRS}")
set(MOREAU_HDF5_LIBRARY_HINTS)
foreach(_lib IN LISTS HDF5_LIBRARIES HDF5_HL_LIBRARIES)
  if(IS_ABSOLUTE "${_lib}" AND _lib MATCHES "hdf5[^/]*$")
    get_filename_component(_dir "${_lib}" DIRECTORY)
    list(APPEND MOREAU_HDF5_LIBRARY_HINTS "${_dir}")
  endif()
endforeach()
list(REMOVE_DUPLICATES MOREAU_HDF5_LIBRARY_HINTS)
configure_file("${CMAKE_CURRENT_LIST_DIR}/modules/FindHDF5.cmake.in"
               "${PROJECT_BINARY_DIR}/cmake-modules/FindHDF5.cmake" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/cmake-modules/FindHDF5.cmake"
        DESTINATION ${MOREAU_CMAKE_INSTALL_DIR}/modules)

# --- pkg-config: moreau.pc, relocatable (prefix relative to the .pc file) -----------------------
file(RELATIVE_PATH MOREAU_PC_PREFIX_FROM_PCDIR "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
string(REGEX REPLACE "/$" "" MOREAU_PC_PREFIX_FROM_PCDIR "${MOREAU_PC_PREFIX_FROM_PCDIR}")
list(JOIN MOREAU_PC_LIBS " " MOREAU_PC_LIBS)
string(APPEND MOREAU_PC_LIBS " -lfclib -pthread")
set(MOREAU_PC_REQUIRES "eigen3 >= 3.4, fmt, nlohmann_json, hdf5-serial, tinyxml2, assimp, urdfdom")
configure_file("${CMAKE_CURRENT_LIST_DIR}/moreau.pc.in" "${PROJECT_BINARY_DIR}/moreau.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/moreau.pc" DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# --- The program, the Python package, the examples' data ----------------------------------------
# MOREAU_DATA_DIR (a compile definition of moreau_cli) names the shared benchmark problems of a
# developer's checkout. No subcommand reads it today, so the installed program holds no path of
# the source or build tree (test install.no_tree_paths checks every installed file); a subcommand
# that needs example data should look in ../share/moreau relative to the program when installed.
set_target_properties(moreau_cli PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
install(TARGETS moreau_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The page template of `moreau view`, found by the program in ../share/moreau (cmd_view.cpp).
if(TARGET moreau_viewer)
  install(FILES "${PROJECT_BINARY_DIR}/viewer/viewer.html" DESTINATION ${MOREAU_SHARE_INSTALL_DIR})
endif()
install(DIRECTORY "${PROJECT_SOURCE_DIR}/examples/scenes" "${PROJECT_SOURCE_DIR}/examples/impact"
        DESTINATION ${MOREAU_SHARE_INSTALL_DIR}/examples)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/examples/downstream"
        DESTINATION ${MOREAU_SHARE_INSTALL_DIR}/examples)

if(MOREAU_BUILD_PYTHON)
  file(RELATIVE_PATH _lib_from_py "/prefix/${MOREAU_PYTHON_INSTALL_DIR}/moreau" "/prefix/${CMAKE_INSTALL_LIBDIR}")
  set_target_properties(_moreau PROPERTIES INSTALL_RPATH "$ORIGIN/${_lib_from_py}")
  install(TARGETS _moreau LIBRARY DESTINATION ${MOREAU_PYTHON_INSTALL_DIR}/moreau)
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/python/moreau/" DESTINATION ${MOREAU_PYTHON_INSTALL_DIR}/moreau
          FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
endif()

# --- Debian package: cpack -G DEB (in the build folder) ------------------------------------------
set(CPACK_PACKAGE_NAME moreau)
set(CPACK_PACKAGE_VENDOR "moreau developers")
set(CPACK_PACKAGE_CONTACT "moreau developers <dev@moreau>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "nonsmooth contact dynamics: contact problems, impact laws, simulation (C++20, CLI, Python)")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# Run-time libraries of the program and the Python module come from dpkg-shlibdeps; the headers
# and the exported targets need the development packages of the public dependencies.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libeigen3-dev (>= 3.4), libfmt-dev, nlohmann-json3-dev, libhdf5-dev, libfclib-dev, libtinyxml2-dev, libassimp-dev, liburdfdom-dev, python3, python3-numpy")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-matplotlib, python3-h5py")
include(CPack)

include("${CMAKE_CURRENT_LIST_DIR}/MoreauDocs.cmake")
if(MOREAU_BUILD_TESTS)
  include("${CMAKE_CURRENT_LIST_DIR}/MoreauPackagingTests.cmake")
endif()
