# Packaging tests (label `install`): each works in a fresh folder under build/packaging/.
#   install.cmake_package         cmake --install, no tree paths installed, the exported link
#                                 interface, examples/downstream (C++ only) via find_package
#   install.cmake_package_shared  the same source built with -DBUILD_SHARED_LIBS=ON (objects of this
#                                 build reused), installed, examples/downstream against it
#   install.pkg_config            cmake --install, a program built with `pkg-config --cflags --libs moreau`
#   install.python_pip            pip install --no-build-isolation into a venv, python3 -m build --no-isolation
#   install.deb                   cpack -G DEB, dpkg -x, moreau --version, examples/downstream against it
set(_pkg_tests "${PROJECT_SOURCE_DIR}/tests/packaging")
set(_pkg_work "${PROJECT_BINARY_DIR}/packaging")
set(MOREAU_DOWNSTREAM_FCLIB "${MOREAU_DATA_DIR}/fclib/from-siconos-dat/FrictionContact3D_1c.hdf5"
    CACHE FILEPATH "The small FCLIB problem the downstream test solves")

add_test(NAME install.cmake_package
         COMMAND bash "${_pkg_tests}/cmake_package.sh" "${PROJECT_BINARY_DIR}" "${PROJECT_SOURCE_DIR}"
                 "${MOREAU_DOWNSTREAM_FCLIB}" "${_pkg_work}/cmake_package")
add_test(NAME install.cmake_package_shared
         COMMAND bash "${_pkg_tests}/cmake_package_shared.sh" "${PROJECT_BINARY_DIR}" "${PROJECT_SOURCE_DIR}"
                 "${MOREAU_DOWNSTREAM_FCLIB}" "${_pkg_work}/cmake_package_shared" "${Python3_EXECUTABLE}")
set_tests_properties(install.cmake_package_shared PROPERTIES LABELS install TIMEOUT 600)
add_test(NAME install.pkg_config
         COMMAND bash "${_pkg_tests}/pkg_config.sh" "${PROJECT_BINARY_DIR}" "${PROJECT_SOURCE_DIR}"
                 "${_pkg_work}/pkg_config" "${CMAKE_CXX_COMPILER}")
set_tests_properties(install.cmake_package install.pkg_config PROPERTIES LABELS install TIMEOUT 300)
if(MOREAU_BUILD_PYTHON)
  add_test(NAME install.python_pip
           COMMAND bash "${_pkg_tests}/python_pip.sh" "${PROJECT_BINARY_DIR}" "${PROJECT_SOURCE_DIR}"
                   "${_pkg_work}/python_pip" "${Python3_EXECUTABLE}")
  set_tests_properties(install.python_pip PROPERTIES LABELS install TIMEOUT 300)
endif()
find_program(MOREAU_DPKG_DEB dpkg-deb)
if(MOREAU_DPKG_DEB)
  add_test(NAME install.deb
           COMMAND bash "${_pkg_tests}/deb.sh" "${PROJECT_BINARY_DIR}" "${_pkg_work}/deb"
                   "${MOREAU_DOWNSTREAM_FCLIB}" "$<$<BOOL:${MOREAU_BUILD_PYTHON}>:${Python3_EXECUTABLE}>")
  set_tests_properties(install.deb PROPERTIES LABELS install TIMEOUT 300)
endif()
