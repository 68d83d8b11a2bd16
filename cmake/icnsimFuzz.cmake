# libFuzzer targets (tb/fuzz/): what users write (scenario files, --set options, workload traces)
# read by the real parsers against the real key table, under AddressSanitizer and UBSan.
# libFuzzer needs clang while the harness is built by the project's compiler, so clang compiles
# the targets and the parsers they drive (instrumented for coverage and both sanitizers) and
# links them against the harness libraries, whose other code runs uninstrumented.
# Gives the targets fuzz_scenario, fuzz_set and fuzz_trace in build/fuzz/ (FUZZ_TARGETS).

# The parsers under test: every translation unit from a scenario's text to its RunParams and from
# a trace's text to its messages. Whole files, compiled alone in the harness too (not in a unity
# batch): the archive's copy of each is then never linked.
set(FUZZ_PARSERS sysc/core/scenario.cpp sysc/run/run_params.cpp sysc/traffic/workload.cpp)
set_source_files_properties(${FUZZ_PARSERS} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)

option(ICNSIM_FUZZ "build the fuzz targets (with clang++, when found)" ON)
find_program(FUZZ_CLANGXX clang++)
set(FUZZ_TARGETS "")
if(NOT ICNSIM_FUZZ)
  return()
elseif(NOT FUZZ_CLANGXX)
  message(STATUS "fuzz: no clang++ (scripts/setup.sh installs it); no fuzz targets")
  return()
endif()

set(FUZZ_DIR ${CMAKE_BINARY_DIR}/fuzz)
set(FUZZ_COMPILE -std=c++17 -O1 -gline-tables-only -fno-sanitize-recover=undefined
                 "-I$<JOIN:$<TARGET_PROPERTY:icncore,INCLUDE_DIRECTORIES>,$<SEMICOLON>-I>")
function(fuzz_object source out)  # compiles source (relative to the source tree); out: its object
  string(REPLACE "/" "_" object ${source})
  set(object ${FUZZ_DIR}/objects/${object}.o)
  add_custom_command(OUTPUT ${object}
    COMMAND ${FUZZ_CLANGXX} ${FUZZ_COMPILE} -fsanitize=fuzzer-no-link,address,undefined
            -MD -MF ${object}.d -c ${CMAKE_SOURCE_DIR}/${source} -o ${object}
    DEPENDS ${CMAKE_SOURCE_DIR}/${source} icncore
    DEPFILE ${object}.d
    COMMENT "fuzz: compiling ${source} with clang, ASan and UBSan"
    COMMAND_EXPAND_LISTS VERBATIM)
  set(${out} ${object} PARENT_SCOPE)
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
  list(APPEND FUZZ_TARGETS ${target})
endforeach()
add_custom_target(fuzzers ALL DEPENDS ${FUZZ_TARGETS})
