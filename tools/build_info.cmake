# cmake -DOUTPUT=file.h -DSOURCE_DIR=dir -P build_info.cmake
# Writes the current commit (with "-dirty" for uncommitted changes) as VKBOIDS_COMMIT; runs at every
# build, touching the header only when the value changes.
set(commit "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
    execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD WORKING_DIRECTORY ${SOURCE_DIR}
        OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
    if(NOT failed AND head)
        set(commit ${head})
        execute_process(COMMAND ${GIT_EXECUTABLE} status --porcelain --untracked-files=no
            WORKING_DIRECTORY ${SOURCE_DIR} OUTPUT_VARIABLE changes ERROR_QUIET)
        if(changes)
            set(commit "${commit}-dirty")
        endif()
    endif()
endif()
file(WRITE ${OUTPUT}.tmp "#pragma once\n#define VKBOIDS_COMMIT \"${commit}\"\n")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
