# libshaderc for MinGW, named as vcpkg's shaderc port names it (vkboids tools/windows/deps.sh).
# shaderc_combined holds libshaderc, glslang and SPIRV-Tools: nothing else to link in order.
get_filename_component(_shaderc_prefix "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
include(CMakeFindDependencyMacro)
find_dependency(Threads)
if(NOT TARGET unofficial::shaderc::shaderc)
  add_library(unofficial::shaderc::shaderc STATIC IMPORTED)
  set_target_properties(unofficial::shaderc::shaderc PROPERTIES
                        IMPORTED_LOCATION "${_shaderc_prefix}/lib/libshaderc_combined.a"
                        INTERFACE_INCLUDE_DIRECTORIES "${_shaderc_prefix}/include"
                        INTERFACE_LINK_LIBRARIES Threads::Threads)
endif()
unset(_shaderc_prefix)
