// v0.2 slices STL files only: the interface's StartSlicingTask says the file name "must end in .stl".
// UploadFile applies the same rule, so it never stores a file that StartSlicingTask would refuse.
import { badRequest } from '../../service/errors.js';

export function requireStlName(name: string, field: string): void {
  if (!/\.stl$/i.test(name.trim())) throw badRequest(`${field} '${name.slice(0, 80)}' must end in .stl (v0.2 slices STL files; v1 reads OBJ and 3MF too)`);
}
