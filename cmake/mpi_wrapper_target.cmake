# One MPI library through its own compiler wrapper (mpicc.mpich, mpicc.openmpi), never through
# FindMPI, which picks one of the installed libraries: tests/mpi and tools/piccolo_mpi build
# against each library by name.
# An INTERFACE target with the include dirs and libraries a wrapper reports.
function(piccolo_mpi_target target wrapper compile_flag link_flag)
    execute_process(COMMAND ${wrapper} ${compile_flag} OUTPUT_VARIABLE compile
                    OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc1)
    execute_process(COMMAND ${wrapper} ${link_flag} OUTPUT_VARIABLE link
                    OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc2)
    if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
        message(FATAL_ERROR "${wrapper} ${compile_flag}/${link_flag} failed")
    endif()
    separate_arguments(tokens UNIX_COMMAND "${compile} ${link}")
    add_library(${target} INTERFACE)
    foreach(token IN LISTS tokens)
        if(token MATCHES "^-I(.+)")
            target_include_directories(${target} SYSTEM INTERFACE ${CMAKE_MATCH_1})
        elseif(token MATCHES "^-L(.+)")
            target_link_directories(${target} INTERFACE ${CMAKE_MATCH_1})
        elseif(token MATCHES "^-l(.+)")
            target_link_libraries(${target} INTERFACE ${CMAKE_MATCH_1})
        endif()
    endforeach()
endfunction()
