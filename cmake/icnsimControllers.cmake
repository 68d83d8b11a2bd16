# SPDX-License-Identifier: Apache-2.0
# icnsim_add_controllers(<target> FOLDERS <folder>...): an icnsim program with the controllers
# declared in those folders (a controller.yaml and its RTL each: docs/controllers.md) besides the
# bundled ones, built against the installed package: no C++ of the controllers' own. The folders'
# manifests are checked (scripts/controllers.py: a broken one stops the configuration, naming the
# file and the field), each controller is verilated inside the simulator's top (scripts/sim_models.py)
# and registered; its GTKWave view goes to <build>/share/icnsim/waves/<name>/, beside links to the
# installed scenarios, RTL and views, which the program finds from its own folder.
function(icnsim_add_controllers target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "FOLDERS")
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${target}_controllers)
  set(scripts ${icnsim_DATA_DIR}/scripts)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(folders "")
  foreach(folder IN LISTS ARG_FOLDERS)  # (a reconfiguration runs in the build folder)
    get_filename_component(folder ${folder} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND folders ${folder})
    file(GLOB folder_files CONFIGURE_DEPENDS ${folder}/controller.yaml ${folder}/*.sv ${folder}/*.svh)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${folder_files})
  endforeach()
  execute_process(COMMAND ${Python3_EXECUTABLE} ${scripts}/controllers.py --out ${out} ${folders}
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "icnsim_add_controllers: scripts/controllers.py refused a controller folder (above)")
  endif()
  include(${out}/controllers.cmake)
  set(specs "")
  set(rtl "")
  foreach(name IN LISTS DECLARED_CONTROLLERS)
    list(APPEND specs ${DECLARED_${name}_SPEC})
    list(APPEND rtl --rtl=${DECLARED_${name}_FOLDER})
  endforeach()
  execute_process(COMMAND ${Python3_EXECUTABLE} ${scripts}/sim_models.py --out ${out}/models ${rtl} ${specs}
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "icnsim_add_controllers: scripts/sim_models.py could not write the tops (above)")
  endif()
  include(${out}/models/models.cmake)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${scripts}/controllers.py)

  add_executable(${target})
  target_link_libraries(${target} PRIVATE icnsim::main)
  target_include_directories(${target} PRIVATE ${out}/models)
  set(data ${CMAKE_CURRENT_BINARY_DIR}/share/icnsim)
  file(MAKE_DIRECTORY ${data}/waves)
  foreach(entry scenarios rtl)
    file(CREATE_LINK ${icnsim_DATA_DIR}/${entry} ${data}/${entry} SYMBOLIC)
  endforeach()
  file(GLOB installed_views RELATIVE ${icnsim_DATA_DIR}/waves ${icnsim_DATA_DIR}/waves/*)
  foreach(view IN LISTS installed_views)
    file(CREATE_LINK ${icnsim_DATA_DIR}/waves/${view} ${data}/waves/${view} SYMBOLIC)
  endforeach()
  foreach(name IN LISTS DECLARED_CONTROLLERS)
    target_sources(${target} PRIVATE ${DECLARED_${name}_REGISTRATION})
    icnsim_verilate(${target} PREFIX V${name} TOP_MODULE icnsim SOURCES ${MODEL_SOURCES_V${name}}
                    DIRECTORY ${out}/verilated/V${name} VERILATOR_ARGS ${icnsim_VERILATOR_FLAGS} -I${DECLARED_${name}_FOLDER})
    icnsim_controller_view(${name} ${scripts} ${data}/waves)
  endforeach()
endfunction()

# The GTKWave view of declared controller <name> (scripts/controllers.py's DECLARED_<name>_*
# variables), with the filters of its RTL's enums, in <waves>/<name>/; none if it has no view.
function(icnsim_controller_view name scripts waves)
  if(NOT DECLARED_${name}_VIEW)
    return()
  endif()
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  add_custom_command(OUTPUT ${waves}/${name}/${name}.stamp
    COMMAND ${Python3_EXECUTABLE} ${scripts}/wave_views.py --rtl ${DECLARED_${name}_FOLDER}
            --views ${DECLARED_${name}_FOLDER} --out ${waves}/${name}
    COMMAND ${CMAKE_COMMAND} -E touch ${waves}/${name}/${name}.stamp
    DEPENDS ${scripts}/wave_views.py ${DECLARED_${name}_SOURCES} ${DECLARED_${name}_VIEW})
  add_custom_target(view_${name} ALL DEPENDS ${waves}/${name}/${name}.stamp)
endfunction()

# icnsim_verilate(<target> PREFIX <model> TOP_MODULE <top> DIRECTORY <dir> SOURCES <file>...
#                 VERILATOR_ARGS <arg>...): Verilator's verilate() with FST tracing, the generated files
# then compiled as two units, as Verilator's own makefiles do for a model not split for parallel
# builds (its __ALL.cpp): the code run on every cycle, and the run-once code (constructors, trace
# set-up), the latter at -O1 in an optimised build. Each of a model's ~9 files spent most of its
# time on the same headers: the bundled models took 564 CPU seconds as 419 files, 259 as 76 units.
function(icnsim_verilate target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "PREFIX;TOP_MODULE;DIRECTORY" "SOURCES;VERILATOR_ARGS")
  verilate(${target} PREFIX ${ARG_PREFIX} TOP_MODULE ${ARG_TOP_MODULE} TRACE_FST SOURCES ${ARG_SOURCES}
           DIRECTORY ${ARG_DIRECTORY} VERILATOR_ARGS ${ARG_VERILATOR_ARGS})
  include(${ARG_DIRECTORY}/${ARG_PREFIX}_copy.cmake)  # (Verilator's lists of the files it generated)
  foreach(part fast slow)
    string(TOUPPER ${part} PART)
    set(files ${${ARG_PREFIX}_CLASSES_${PART}} ${${ARG_PREFIX}_SUPPORT_${PART}})
    set_source_files_properties(${files} PROPERTIES HEADER_FILE_ONLY ON)  # (still generated first)
    list(TRANSFORM files REPLACE "^.*/" "#include \"")
    list(TRANSFORM files APPEND "\"")
    string(JOIN "\n" includes ${files})
    set(unit ${ARG_DIRECTORY}/${ARG_PREFIX}__${part}_unit.cpp)
    file(CONFIGURE OUTPUT ${unit} CONTENT "// Generated by icnsim_verilate: ${ARG_PREFIX}'s ${part} code.\n${includes}\n")
    target_sources(${target} PRIVATE ${unit})
    if(part STREQUAL "slow")
      set_source_files_properties(${unit} PROPERTIES COMPILE_OPTIONS $<$<CONFIG:Release,RelWithDebInfo>:-O1>)
    endif()
  endforeach()
endfunction()
