# Tests of sim/select and `piccolo select` (its command-line parsing is compiled in, so the tests
# do not depend on the subcommand being registered in main.cpp). Included from
# tests/sim/CMakeLists.txt.
piccolo_add_tests(select_tests
    ${CMAKE_CURRENT_LIST_DIR}/test_select.cpp
    ${CMAKE_CURRENT_LIST_DIR}/test_select_emit.cpp
    ${CMAKE_CURRENT_LIST_DIR}/test_select_cli.cpp
    ${PROJECT_SOURCE_DIR}/tools/piccolo/cmd_select.cpp
    ${PROJECT_SOURCE_DIR}/tools/piccolo/size_parse.cpp
)
target_include_directories(select_tests PRIVATE ${PROJECT_SOURCE_DIR}/tools/piccolo)
target_link_libraries(select_tests PRIVATE piccolo::select CLI11::CLI11 fmt::fmt
                      nlohmann_json::nlohmann_json yaml-cpp)
