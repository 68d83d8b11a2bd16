# SPDX-License-Identifier: Apache-2.0
# libFuzzer targets (tb/fuzz/): what users write (scenario files, --set options, workload traces)
# read by the real parsers against the real key table, under AddressSanitizer and UBSan.
# libFuzzer needs clang while the harness is built by the project's compiler, so clang compiles
# the targets and the parsers they drive (instrumented for coverage and both sanitizers) and
# links them against the harness libraries, whose other code runs uninstrumented.
# Gives the programs fuzz_scenario, fuzz_set and fuzz_trace in build/fuzz/ (FUZZ_TARGETS; target
# fuzzers). They know the built-in keys, not those of controllers declared at configure time.

# The parsers under test, instrumented: the scenario and its key table, each layer's parameters
# and rules (simulation, process, system power, network, topology, data plane, traffic, the
# mechanisms' registry) and the trace reader. The mechanisms' own parsers and the topologies'
# constructors run uninstrumented. Whole files, compiled alone in the harness too (not in a unity
# batch): the archive's copy of each is then never linked.
set(FUZZ_PARSERS sysc/core/scenario.cpp sysc/core/sim_params.cpp sysc/core/process_params.cpp
                 sysc/core/system_power.cpp sysc/net/net_params.cpp sysc/net/topology.cpp sysc/net/data_plane.cpp
                 sysc/traffic/traffic_params.cpp sysc/traffic/workload.cpp sysc/mech/registry.cpp
                 sysc/run/run_params.cpp)
set_source_files_properties(${FUZZ_PARSERS} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)

option(ICNSIM_FUZZ "build and test the fuzz targets (clang++ and libFuzzer needed)" ON)
set(FUZZ_DIR ${CMAKE_BINARY_DIR}/fuzz)
set(FUZZ_TARGETS "")
if(NOT ICNSIM_FUZZ)
  return()
endif()
foreach(name scenario set trace)
  list(APPEND FUZZ_TARGETS ${FUZZ_DIR}/fuzz_${name})  # (tested even when they cannot be built)
endforeach()
find_program(FUZZ_CLANGXX clang++)
if(NOT FUZZ_CLANGXX)
  message(WARNING "fuzz: no clang++ (scripts/setup.sh installs it): the fuzz tests will fail; "
                  "-DICNSIM_FUZZ=OFF leaves them out")
  return()
endif()

set(FUZZ_COMPILE -std=c++17 -O1 -gline-tables-only -fno-sanitize-recover=undefined
                 "-I$<JOIN:$<TARGET_PROPERTY:icncore,INCLUDE_DIRECTORIES>,$<SEMICOLON>-I>")
# The object is named relative to the build folder, as Ninja names it: a depfile naming it by its
# absolute path never matches, and Ninja then compiles it again on every build.
function(fuzz_object source out)  # compiles source (relative to the source tree); out: its object
  string(REPLACE "/" "_" object ${source})
  set(object fuzz/objects/${object}.o)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/${object}
    COMMAND ${FUZZ_CLANGXX} ${FUZZ_COMPILE} -fsanitize=fuzzer-no-link,address,undefined
            -MD -MF ${object}.d -c ${CMAKE_SOURCE_DIR}/${source} -o ${object}
    DEPENDS ${CMAKE_SOURCE_DIR}/${source}
    DEPFILE ${CMAKE_BINARY_DIR}/${object}.d
    WORKING_DIRECTORY ${CMAKE_BINARY_DIR}
    COMMENT "fuzz: compiling ${source} with clang, ASan and UBSan"
    COMMAND_EXPAND_LISTS VERBATIM)
  set(${out} ${CMAKE_BINARY_DIR}/${object} PARENT_SCOPE)
endfunction()

file(MAKE_DIRECTORY ${FUZZ_DIR}/objects)
set(FUZZ_PARSER_OBJECTS "")
foreach(source IN LISTS FUZZ_PARSERS ITEMS tb/fuzz/no_sc_main.cpp)
  fuzz_object(${source} object)
  list(APPEND FUZZ_PARSER_OBJECTS ${object})
endforeach()
foreach(name scenario set trace)
  fuzz_object(tb/fuzz/fuzz_${name}.cpp entry)
  set(target ${FUZZ_DIR}/fuzz_${name})
  add_custom_command(OUTPUT ${target}
    COMMAND ${FUZZ_CLANGXX} -fsanitize=fuzzer,address,undefined ${entry} ${FUZZ_PARSER_OBJECTS}
            -Wl,--start-group $<TARGET_FILE:icncore> $<TARGET_FILE:controllers> -Wl,--end-group
            -lyaml-cpp ${SYSTEMC_LIBRARY} ${OPENSSL_CRYPTO_LIBRARY} -lz -latomic -lpthread -ldl -o ${target}
    DEPENDS ${entry} ${FUZZ_PARSER_OBJECTS} icncore controllers
    COMMENT "fuzz: linking fuzz_${name}"
    COMMAND_EXPAND_LISTS VERBATIM)
endforeach()
add_custom_target(fuzzers ALL DEPENDS ${FUZZ_TARGETS})
add_dependencies(fuzzers icncore controllers)  # (the headers they generate, before any object)
